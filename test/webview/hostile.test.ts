// Every string from the host is untrusted. The whole hostile corpus goes through every text slot
// the view has (user text, model output recorded and streaming, tool input, result and diff,
// notices, reminder labels, reasons and bodies, steering, the approval card, titles, notices,
// the chat list) and must stay text: nothing runs, nothing loads, no reminder row is forged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TranscriptItem } from '../../src/protocol/messages';
import { DANGEROUS_ELEMENTS, FORGED_BLOCK, HOSTILE_CORPUS } from './corpus';
import { assistant, entry, reminders, tool, user } from './items';
import { agentView, assertCleanAndClose, openChat, useHarness, viewState } from './page';

function hostileTranscript(): TranscriptItem[] {
	const items: TranscriptItem[] = [];
	HOSTILE_CORPUS.forEach((text, i) => {
		items.push(user(`u${i}`, text));
		items.push(tool(`t${i}`, { input: JSON.stringify({ path: text }, null, 2), result: text, diff: `--- a\n+++ b\n@@ -1 +1 @@\n-${text}\n+${text}`, notices: [{ key: 'read.truncated', body: text }] }));
		items.push(assistant(`a${i}`, text));
	});
	// The only genuine reminders: one record whose label, reason and body are hostile too.
	items.push(reminders('r-real', [{ ...entry('x.hostile', HOSTILE_CORPUS[1] ?? '', HOSTILE_CORPUS.join('\n')), reason: HOSTILE_CORPUS[0] ?? '' }], 'mid-turn'));
	return items;
}

describe('hostile strings', () => {
	const harness = useHarness();

	it('render as text in every slot, run nothing, load nothing, and forge no reminder row', async () => {
		const chat = await openChat(harness);
		const items = hostileTranscript();
		await chat.connect(viewState({ session: { id: 'session-1', title: HOSTILE_CORPUS[1] ?? '', items } }));
		const { page } = chat;
		// Tall, so the transcript keeps room beside the approval card and notices it will show.
		await page.setViewportSize({ width: 900, height: 1600 });
		let seq = 1;
		// Live slots: streaming text, steering, the approval card with a diff, a notice, the chat list.
		for (const text of HOSTILE_CORPUS) {
			const requestId = `req-${seq + 1}`;
			await chat.host({
				type: 'agent.changed',
				seq: seq++,
				agent: agentView({
					status: { state: 'running', detail: text },
					streaming: { requestId },
					steering: [text],
					approval: { callId: `c${seq}`, tool: 'Edit', kind: 'write', title: text, target: text, diff: `-${text}\n+${text}` },
				}),
			});
			await chat.host({ type: 'text.streamed', seq: seq++, requestId, text });
			await chat.host({ type: 'text.streamed', seq: seq++, requestId, text: `\n${text}` });
			await chat.host({ type: 'notice', seq: seq++, level: 'error', text: text.slice(0, 2000) });
		}
		await page.getByRole('button', { name: 'Chats' }).click();
		await chat.host({ type: 'sessions.listed', seq, sessions: HOSTILE_CORPUS.map((text, i) => ({ id: `s${i}`, title: text, at: 0, current: i === 0 })) });
		await page.keyboard.press('Escape');

		// Open every collapsible row the view has rendered, scrolling through the whole transcript.
		const scroller = page.locator('.scroller');
		for (let pass = 0; pass < 400; pass++) {
			const closed = page.locator('.transcript button.disclosure[aria-expanded="false"]');
			if ((await closed.count()) > 0) {
				await closed.first().click();
				continue;
			}
			const atEnd = await scroller.evaluate((node) => node.scrollTop + node.clientHeight >= node.scrollHeight - 2);
			if (atEnd) {
				break;
			}
			await scroller.evaluate((node) => {
				node.scrollTop += Math.max(node.clientHeight, 300);
			});
			await page.waitForTimeout(50);
		}
		// Let anything that would load or run have its chance.
		await page.waitForTimeout(300);

		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, 'nothing ran');
		const dangerous = await page.evaluate((selector) => Array.from(document.querySelectorAll(`#app :is(${selector})`), (node) => `${node.tagName} in ${node.parentElement?.className ?? ''}`), DANGEROUS_ELEMENTS);
		assert.deepEqual(dangerous, [], 'no element that could run or load');
		const handlers = await page.evaluate(() => Array.from(document.querySelectorAll('#app *')).flatMap((node) => Array.from(node.attributes).filter((a) => a.name.startsWith('on')).map((a) => `${node.tagName} ${a.name}`)));
		assert.deepEqual(handlers, [], 'no event-handler attribute');
		const hrefs = await page.evaluate(() => Array.from(document.querySelectorAll('#app [href], #app [src], #app [action], #app [formaction]'), (node) => node.getAttribute('href') ?? node.getAttribute('src') ?? ''));
		for (const href of hrefs) {
			assert.match(href, /^(https?:|mailto:)/i, `only web and mail links: ${href}`);
		}
		// The one genuine record is the one reminders row; forged blocks in user text, tool results
		// and model output stay text.
		assert.equal(await page.locator('[data-kind="reminders"]').count(), 1);
		assert.equal(await page.locator('.reminders-toggle').count(), 1);
		const forgedUser = page.locator(`li[data-id="u${HOSTILE_CORPUS.indexOf(FORGED_BLOCK)}"] .user-text`);
		// Virtualized: scroll back until that row is mounted.
		for (let up = 0; up < 200 && (await forgedUser.count()) === 0; up++) {
			await scroller.evaluate((node) => {
				node.scrollTop -= 300;
			});
			await page.waitForTimeout(30);
		}
		assert.equal(await forgedUser.textContent(), FORGED_BLOCK);
		// The streaming row, steering and approval card kept the text as text.
		assert.match(await page.locator('[data-kind="steering"]').first().innerText(), /<system-reminder key="session.date">|Forged date/);
		await assertCleanAndClose(chat);
	});
});
