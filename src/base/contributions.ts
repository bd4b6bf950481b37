// Activation as an ordered list of contributions, each wiring one feature into a store of its own
// (VS Code's workbench contributions, copilot-chat's ContributionCollection): one that throws is
// logged by its name and the next still starts, so a broken feature does not take the chat with it.
import { DisposableStore, type IDisposable, toDisposable } from './lifecycle';
import { errorMessage } from './errors';
import type { Logger } from './log';

export interface Contribution<C> {
	/** What the log calls it when it fails. */
	readonly name: string;
	/** Wires the feature from `context`; what it registers goes into `store`. */
	contribute(context: C, store: DisposableStore): void;
}

/** Runs `contributions` in order; the result disposes those that started, the last first. */
export function runContributions<C>(contributions: readonly Contribution<C>[], context: C, log: Logger): IDisposable {
	const started: DisposableStore[] = [];
	for (const contribution of contributions) {
		const store = new DisposableStore();
		try {
			contribution.contribute(context, store);
			started.push(store);
		} catch (error) {
			log.error(`Contribution "${contribution.name}" failed to start: ${errorMessage(error)}`);
			// What it registered before the throw goes with it: no half a feature stays behind.
			try {
				store.dispose();
			} catch (disposeError) {
				log.error(`Contribution "${contribution.name}" failed to dispose: ${errorMessage(disposeError)}`);
			}
		}
	}
	return toDisposable(() => {
		// A later contribution may use what an earlier one made: it goes first.
		const errors: unknown[] = [];
		for (const store of started.reverse()) {
			try {
				store.dispose();
			} catch (error) {
				errors.push(error);
			}
		}
		if (errors.length === 1) {
			throw errors[0];
		}
		if (errors.length > 1) {
			throw new AggregateError(errors, 'Several contributions failed to dispose');
		}
	});
}
