// Disposables in the shape of VS Code's own `lifecycle.ts`, usable from pure modules.

export interface IDisposable {
	dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
	let disposed = false;
	return {
		dispose() {
			if (!disposed) {
				disposed = true;
				fn();
			}
		},
	};
}

/** Owns a set of disposables; disposing the store disposes them all, once, even if one throws. */
export class DisposableStore implements IDisposable {
	private readonly items = new Set<IDisposable>();
	private disposed = false;

	get isDisposed(): boolean {
		return this.disposed;
	}

	add<T extends IDisposable>(item: T): T {
		if (this.disposed) {
			// Adding to a dead store would leak: dispose right away instead.
			item.dispose();
		} else {
			this.items.add(item);
		}
		return item;
	}

	delete(item: IDisposable): void {
		if (this.items.delete(item)) {
			item.dispose();
		}
	}

	clear(): void {
		const errors: unknown[] = [];
		for (const item of this.items) {
			try {
				item.dispose();
			} catch (error) {
				errors.push(error);
			}
		}
		this.items.clear();
		if (errors.length === 1) {
			throw errors[0];
		}
		if (errors.length > 1) {
			throw new AggregateError(errors, 'Several disposables failed to dispose');
		}
	}

	dispose(): void {
		if (!this.disposed) {
			this.disposed = true;
			this.clear();
		}
	}
}

export abstract class Disposable implements IDisposable {
	protected readonly store = new DisposableStore();

	protected _register<T extends IDisposable>(item: T): T {
		return this.store.add(item);
	}

	dispose(): void {
		this.store.dispose();
	}
}

/** Holds one swappable disposable (the current provider, the current session's wiring). */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
	private current: T | undefined;
	private disposed = false;

	get value(): T | undefined {
		return this.current;
	}

	set value(next: T | undefined) {
		if (this.disposed) {
			next?.dispose();
			return;
		}
		if (next !== this.current) {
			this.current?.dispose();
			this.current = next;
		}
	}

	dispose(): void {
		this.disposed = true;
		this.current?.dispose();
		this.current = undefined;
	}
}
