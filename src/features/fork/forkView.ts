// A user row's Fork from here: the fork becomes current (its snapshot follows); what went wrong is
// said in the chat.
import { errorMessage } from '../../base/errors';
import { type IDisposable, toDisposable } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import type { ViewMessage } from '../../protocol/messages';
import type { ForkControls } from '../../view/controls';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';

export class ForkPart implements FeatureViewPart, IDisposable {
	readonly id = 'fork';

	constructor(
		private readonly forks: ForkControls | undefined,
		private readonly log: Logger,
	) {}

	connect(): IDisposable {
		// It says nothing of its own accord: the fork is a new chat, shown as one.
		return toDisposable(() => undefined);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		if (message.type !== 'fork.create') {
			return;
		}
		if (!this.forks) {
			view.notice('warning', 'Forking a chat is not available here.');
			return;
		}
		this.forks.fork(message.from, message.worktree).then(
			(refused) => {
				if (refused !== undefined) {
					view.notice('warning', refused);
				}
			},
			(error: unknown) => {
				this.log.error(`Aside: could not fork the chat: ${errorMessage(error)}`);
				view.notice('error', `Could not fork the chat: ${errorMessage(error)}`);
			},
		);
	}

	dispose(): void {
		// Nothing held.
	}
}
