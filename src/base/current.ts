// Following whichever value is current (the window's current session, its projection): wiring
// made for the current one, disposed when another becomes current and made again for that one.
import type { Event } from './event';
import { type IDisposable, MutableDisposable, toDisposable } from './lifecycle';

/** One current value at a time, and an event when another one becomes current. */
export interface HasCurrent<T> {
	readonly current: T;
	readonly onDidChangeCurrent: Event<T>;
}

/**
 * Calls `wire` with the current value now and with each one that becomes current later, after
 * disposing what it returned for the one before. Disposing the result stops following and
 * disposes the last wiring.
 */
export function whileCurrent<T>(holder: HasCurrent<T>, wire: (current: T) => IDisposable | undefined): IDisposable {
	const wiring = new MutableDisposable<IDisposable>();
	const follow = (current: T): void => {
		// The old wiring goes before the new one is made: never two at once.
		wiring.value = undefined;
		wiring.value = wire(current);
	};
	follow(holder.current);
	const subscription = holder.onDidChangeCurrent(follow);
	return toDisposable(() => {
		subscription.dispose();
		wiring.dispose();
	});
}

/** An event of whichever value is current: a listener hears `eventOf` the current one, whichever that is when it fires. */
export function currentEvent<T, E>(holder: HasCurrent<T>, eventOf: (current: T) => Event<E>): Event<E> {
	return (listener) => whileCurrent(holder, (current) => eventOf(current)(listener));
}
