// Events in the shape of VS Code's `Event`/`EventEmitter`, for pure modules that cannot import
// 'vscode'. A listener that throws is reported, never allowed to stop the others.
import { type IDisposable, toDisposable } from './lifecycle';

export type Event<T> = (listener: (value: T) => void) => IDisposable;

export class Emitter<T> implements IDisposable {
	private listeners = new Set<(value: T) => void>();
	private disposed = false;

	constructor(private readonly onListenerError: (error: unknown) => void = (error) => {
		console.error(error);
	}) {}

	readonly event: Event<T> = (listener) => {
		if (this.disposed) {
			return toDisposable(() => undefined);
		}
		// Wrapped so the same function can subscribe twice and unsubscribe each on its own.
		const entry = (value: T) => {
			listener(value);
		};
		this.listeners.add(entry);
		return toDisposable(() => this.listeners.delete(entry));
	};

	fire(value: T): void {
		for (const listener of [...this.listeners]) {
			try {
				listener(value);
			} catch (error) {
				this.onListenerError(error);
			}
		}
	}

	dispose(): void {
		this.disposed = true;
		this.listeners.clear();
	}
}

/** Resolves with the first value for which `predicate` holds, or rejects after `timeoutMs`. */
export function waitForEvent<T>(event: Event<T>, predicate: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const timer = setTimeout(() => {
			subscription.dispose();
			reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
		}, timeoutMs);
		const subscription = event((value) => {
			if (predicate(value)) {
				clearTimeout(timer);
				subscription.dispose();
				resolve(value);
			}
		});
	});
}
