import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currentEvent, type HasCurrent, whileCurrent } from './current';
import { Emitter } from './event';
import { toDisposable } from './lifecycle';

class Holder implements HasCurrent<Emitter<string>> {
	current = new Emitter<string>();
	private readonly changed = new Emitter<Emitter<string>>();
	readonly onDidChangeCurrent = this.changed.event;

	replace(): Emitter<string> {
		this.current = new Emitter<string>();
		this.changed.fire(this.current);
		return this.current;
	}
}

describe('whileCurrent', () => {
	it('wires the current value now and each later one, disposing the old wiring before the new is made', () => {
		const holder = new Holder();
		const log: string[] = [];
		let n = 0;
		const following = whileCurrent(holder, () => {
			const id = ++n;
			log.push(`wire ${id}`);
			return toDisposable(() => log.push(`unwire ${id}`));
		});
		holder.replace();
		holder.replace();
		assert.deepEqual(log, ['wire 1', 'unwire 1', 'wire 2', 'unwire 2', 'wire 3']);
		following.dispose();
		holder.replace();
		assert.deepEqual(log.slice(5), ['unwire 3'], 'disposed: the last wiring goes, and nothing follows any more');
	});

	it('takes a value that needs no wiring', () => {
		const holder = new Holder();
		const seen: Emitter<string>[] = [];
		whileCurrent(holder, (current) => {
			seen.push(current);
			return undefined;
		});
		const next = holder.replace();
		assert.deepEqual(seen, [seen[0], next]);
	});
});

describe('currentEvent', () => {
	it('a listener hears the current value\'s event only, whichever is current', () => {
		const holder = new Holder();
		const heard: string[] = [];
		const first = holder.current;
		const listening = currentEvent(holder, (current) => current.event)((text) => heard.push(text));
		first.fire('a');
		const second = holder.replace();
		first.fire('from the old one');
		second.fire('b');
		listening.dispose();
		second.fire('after dispose');
		assert.deepEqual(heard, ['a', 'b']);
	});
});
