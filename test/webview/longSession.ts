// A long session for the virtualized-transcript tests, and how they look at the view: which
// rows are mounted, where, and whether they cover the visible height.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TranscriptItem } from '../../src/protocol/messages';
import { assistant, entry, reminders, tool, turnEnd, user } from './items';
import { agentView, type ChatPage, openChat, type ViewHarness, viewState } from './page';

/** A session of `rows` shown rows (plus items that show nothing), and the ids in the order shown. */
export function session(rows: number): { items: TranscriptItem[]; order: string[] } {
	let seed = 7;
	const random = (): number => {
		seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
		return seed / 2_147_483_648;
	};
	const words = ['parse', 'the', 'build', 'fails\n', 'because', 'a', 'type', 'is', 'wrong', 'in', 'src/app.ts', 'so'];
	const text = (min: number, max: number): string =>
		Array.from({ length: min + Math.floor(random() * (max - min)) }, (_, i) => words[(i * 7 + Math.floor(random() * 3)) % words.length]).join(' ');
	const items: TranscriptItem[] = [];
	const order: string[] = [];
	for (let turn = 1; order.length < rows; turn++) {
		items.push(user(`u${turn}`, text(2, 80)));
		// The first turn always has turn-start reminders: the very first row shown is one.
		if (turn === 1 || random() < 0.4) {
			items.push(reminders(`r${turn}`, [entry('session.date', 'date', `Turn ${turn}.`), entry('files.edited', 'file changed', 'a.ts')]));
			order.push(`r${turn}`);
		}
		order.push(`u${turn}`);
		const steps = 1 + Math.floor(random() * 3);
		for (let step = 0; step < steps; step++) {
			const id = `a${turn}-${step}`;
			// A response that only called tools shows nothing.
			const silent = random() < 0.3;
			items.push(assistant(id, silent ? '' : text(3, 250), 'tool-use'));
			if (!silent) {
				order.push(id);
			}
			for (let call = 0; call < 1 + Math.floor(random() * 3); call++) {
				items.push(tool(`t${turn}-${step}-${call}`, { result: text(1, 40) }));
				order.push(`t${turn}-${step}-${call}`);
			}
			if (random() < 0.2) {
				items.push(reminders(`m${turn}-${step}`, [entry('context.usage', 'context usage', 'Context is 62% full.')], 'mid-turn'));
				order.push(`m${turn}-${step}`);
			}
		}
		items.push(assistant(`f${turn}`, text(1, 120)));
		order.push(`f${turn}`);
		items.push(turnEnd(`e${turn}`, 'done'));
	}
	return { items, order };
}

export const BIG = session(10_000);
export const MEDIUM = session(2_000);

/** Waits until the rows and the scroll position have not changed for two frames. */
export async function settle(page: Page): Promise<void> {
	await page.evaluate(async () => {
		const frame = (): Promise<void> =>
			new Promise((resolve) => {
				requestAnimationFrame(() => {
					resolve();
				});
			});
		const scroller = document.querySelector('.scroller');
		const snapshot = (): string => `${scroller?.scrollTop ?? 0} ${scroller?.scrollHeight ?? 0} ${[...document.querySelectorAll('.transcript > li')].map((li) => li.getAttribute('data-id')).join()}`;
		let last = '';
		let stable = 0;
		for (let i = 0; i < 60 && stable < 2; i++) {
			await frame();
			const now = snapshot();
			stable = now === last ? stable + 1 : 0;
			last = now;
		}
	});
}

export interface View {
	readonly ids: string[];
	readonly scrollTop: number;
	readonly scrollHeight: number;
	readonly clientHeight: number;
	/** Whether the mounted rows cover the scroller's whole visible height (no blank spacer in view). */
	readonly covered: boolean;
	/** The top of each mounted row relative to the scroller's top, by id. */
	readonly tops: Record<string, number>;
}

export function view(page: Page): Promise<View> {
	return page.evaluate(() => {
		const scroller = document.querySelector('.scroller') as HTMLElement;
		const box = scroller.getBoundingClientRect();
		const rows = [...document.querySelectorAll<HTMLElement>('.transcript > li')];
		const tops: Record<string, number> = {};
		for (const row of rows) {
			tops[row.dataset.id ?? ''] = row.getBoundingClientRect().top - box.top;
		}
		const first = rows[0]?.getBoundingClientRect();
		const last = rows.at(-1)?.getBoundingClientRect();
		const listEnd = document.querySelector('.transcript')?.getBoundingClientRect().bottom ?? 0;
		return {
			ids: rows.map((row) => row.dataset.id ?? ''),
			scrollTop: scroller.scrollTop,
			scrollHeight: scroller.scrollHeight,
			clientHeight: scroller.clientHeight,
			covered: first !== undefined && last !== undefined && first.top <= box.top + 1 && last.bottom >= Math.min(box.bottom, listEnd) - 1,
			tops,
		};
	});
}

export async function scrollTo(page: Page, top: number): Promise<View> {
	await page.evaluate((value) => {
		(document.querySelector('.scroller') as HTMLElement).scrollTop = value;
	}, top);
	await settle(page);
	return view(page);
}

/** The mounted rows are one run of the shown order, with no row missing or repeated. */
export function assertRun(ids: readonly string[], order: readonly string[], message: string): number {
	const start = order.indexOf(ids[0] ?? '');
	assert.ok(start >= 0, `${message}: the first row is a shown item`);
	assert.deepEqual(ids, order.slice(start, start + ids.length), `${message}: rows in order`);
	assert.ok(ids.length <= 60, `${message}: ${ids.length} rows in the DOM`);
	return start;
}

export const atEnd = (v: View): boolean => v.scrollHeight - v.scrollTop - v.clientHeight < 2;

/** A chat showing `items`, settled at the end. */
export async function openSession(harness: ViewHarness, items: TranscriptItem[]): Promise<ChatPage> {
	const chat = await openChat(harness);
	await chat.connect(viewState({ session: { id: 'session-1', title: 'Long', items }, agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
	await settle(chat.page);
	return chat;
}
