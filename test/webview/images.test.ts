// Images in the composer and on the user row, in the real bundle in headless Chromium: a PNG pasted
// through a ClipboardEvent and dropped through a DragEvent (real DataTransfer objects), its bytes posted
// to the host, the host's answer shown as a thumbnail with a remove button reachable by keyboard, the
// message sent with its images; a 30 MB image and a file that claims to be a PNG refused with a
// message that keeps the text; a user row's thumbnails, opened bigger. With ASIDE_PICTURES_DIR set it
// writes docs/images/image-message.png (as pictures.test.ts does).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ViewMessage } from '../../src/protocol/messages';
import { sniffImage } from '../../src/tools/images';
import { pngImage } from '../../src/testing/imageFixtures';
import { assistant, user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, useHarness, viewState } from './page';
import { applyTheme } from './themes';

type Attach = Extract<ViewMessage, { type: 'images.attach' }>;
type Submit = Extract<ViewMessage, { type: 'submit' }>;

const SHOT = pngImage(48, 32, [40, 120, 200]);
const READY = { agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) };

/** Puts a file in a DataTransfer and fires `kind` on the message box, as a paste or a drop from the OS does. */
async function transfer(chat: ChatPage, kind: 'paste' | 'drop', name: string, bytes: number[] | { zeros: number }, type = 'image/png'): Promise<void> {
	await chat.page.evaluate(([k, n, b, t]) => {
		const data = Array.isArray(b) ? new Uint8Array(b) : new Uint8Array(b.zeros);
		const dataTransfer = new DataTransfer();
		dataTransfer.items.add(new File([data], n, { type: t }));
		const target = document.querySelector('.composer-input');
		const event = k === 'paste'
			? new ClipboardEvent('paste', { clipboardData: dataTransfer, bubbles: true, cancelable: true })
			: new DragEvent('drop', { dataTransfer, bubbles: true, cancelable: true });
		target?.dispatchEvent(event);
	}, [kind, name, bytes, type] as const);
}

describe('images in the composer', () => {
	const harness = useHarness();

	it('a pasted PNG goes to the host as its bytes, shows as a thumbnail once taken, and is sent with the text', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState(READY));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.fill('What is wrong here?');
		await transfer(chat, 'paste', 'shot.png', [...SHOT]);
		const [attach] = (await chat.waitForPosted('images.attach')) as Attach[];
		assert.ok(attach);
		assert.equal(attach.image.name, 'shot.png');
		assert.equal(Buffer.from(attach.image.data, 'base64').equals(SHOT), true, 'the bytes, byte for byte');
		assert.equal(await page.locator('.image-tray-item').count(), 0, 'nothing shows before the host took it');
		await chat.host({ type: 'images.attached', seq: 1, requestId: attach.requestId, image: { name: 'shot.png', mimeType: 'image/png', bytes: SHOT.length, width: 48, height: 32 } });
		await page.locator('.image-tray-item img').waitFor();
		assert.equal(await page.locator('.image-tray-item img').getAttribute('src'), `data:image/png;base64,${SHOT.toString('base64')}`);
		assert.equal(await input.inputValue(), 'What is wrong here?', 'the text is untouched');

		await input.press('Enter');
		const [submit] = (await chat.waitForPosted('submit')) as Submit[];
		assert.equal(submit?.text, 'What is wrong here?');
		assert.deepEqual(submit.images, [{ name: 'shot.png', data: SHOT.toString('base64') }]);
		assert.equal(await page.locator('.image-tray-item').count(), 1, 'kept until the host says they went');
		await chat.host({ type: 'images.sent', seq: 2 });
		await page.locator('.image-tray-item').waitFor({ state: 'detached' });
		assert.equal(await page.locator('.image-tray').isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('a dropped image is attached too; the remove button is reached by keyboard and takes it away', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState(READY));
		const { page } = chat;
		await transfer(chat, 'drop', 'one.png', [...SHOT]);
		await transfer(chat, 'drop', 'two.png', [...SHOT]);
		const attaches = (await chat.waitForPosted('images.attach', 2)) as Attach[];
		let seq = 1;
		for (const attach of attaches) {
			await chat.host({ type: 'images.attached', seq: seq++, requestId: attach.requestId, image: { name: attach.image.name, mimeType: 'image/png', bytes: SHOT.length, width: 48, height: 32 } });
		}
		await page.locator('.image-tray-item').nth(1).waitFor();
		const remove = page.getByRole('button', { name: 'Remove image one.png' });
		await remove.focus();
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Remove image one.png' }).waitFor({ state: 'detached' });
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Remove image two.png', 'the focus goes to the next remove button');
		await page.keyboard.press('Enter');
		await page.locator('.image-tray-item').waitFor({ state: 'detached' });
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Aside', 'then back to the box');
		assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), true, 'nothing left to send');
		await assertCleanAndClose(chat);
	});

	it('a 30 MB image is refused in the view, and a fake PNG by the host: each says why, and the text stays', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState(READY));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		await input.fill('keep me');
		await transfer(chat, 'paste', 'huge.png', { zeros: 30 * 1024 * 1024 });
		const message = page.locator('.image-tray-message');
		await message.waitFor();
		assert.equal(await message.innerText(), '"huge.png" is 30 MB: the largest image Aside sends is 20 MB (the OpenAI-compatible bound). It was not attached; your text is still in the box.');
		assert.equal(await message.getAttribute('role'), 'alert');
		assert.equal((await chat.posted()).filter((posted) => posted.type === 'images.attach').length, 0, 'its bytes never went to the host');

		await transfer(chat, 'drop', 'fake.png', [...Buffer.from('not a png at all')]);
		const [attach] = (await chat.waitForPosted('images.attach')) as Attach[];
		assert.ok(attach);
		const reason = '"fake.png" is not a PNG, JPEG, GIF or WebP image (its bytes say so, whatever its name says). It was not attached.';
		await chat.host({ type: 'images.refused', seq: 1, requestId: attach.requestId, reason });
		await page.locator('.image-tray-message', { hasText: 'fake.png' }).waitFor();
		assert.equal(await message.innerText(), `${reason} Your text is still in the box.`);
		assert.equal(await page.locator('.image-tray-item').count(), 0);
		assert.equal(await input.inputValue(), 'keep me');
		await assertCleanAndClose(chat);
	});

	it('an image whose file is gone is named on the row instead', async () => {
		const chat = await openChat(harness);
		const items = [{ ...user('u1', 'See the screenshot.'), images: [{ mimeType: 'image/png', bytes: 2048, missing: 'u1.image-1.png' }] }];
		await chat.connect(viewState({ ...READY, session: { id: 'session-1', title: 'Gone', items } }));
		const missing = chat.page.locator('.user-image-missing');
		await missing.waitFor();
		assert.match(await missing.innerText(), /^image missing \(image\/png, 2 KB\)$/);
		await assertCleanAndClose(chat);
	});

	it('a user row shows its images as thumbnails that open bigger', async () => {
		const chat = await openChat(harness);
		await chat.page.setViewportSize({ width: 560, height: 640 });
		const at = Date.UTC(2026, 11, 7, 9, 30);
		// A real screenshot as the person's image: the README's picture of the goal line.
		const screenshot = readFileSync(join('docs', 'images', 'goal.png'));
		const { width, height } = sniffImage(screenshot) ?? {};
		const items = [
			{ ...user('u1', 'The goal line is cramped in a narrow sidebar — see the screenshot. Can the meter wrap under the objective?', at), images: [
				{ mimeType: 'image/png', bytes: screenshot.length, width, height, src: `data:image/png;base64,${screenshot.toString('base64')}` },
			] },
			{ ...assistant('a1', 'Yes: `.goal-line` is one flex row with `flex-wrap: nowrap`. Letting it wrap, with the meter at `flex-basis: 100%` under 320 px, puts it on a line of its own.'), at: at + 20_000 },
		];
		await chat.connect(viewState({ ...READY, session: { id: 'session-1', title: 'Narrow goal line', items } }));
		await applyTheme(chat.page, 'dark');
		const { page } = chat;
		const thumb = page.locator('button.user-image').first();
		await thumb.waitFor();
		assert.match((await thumb.getAttribute('aria-label')) ?? '', new RegExp(`^Image 1: image/png, [\\d.]+ (bytes|KB), ${width}×${height} px$`));
		const dir = process.env.ASIDE_PICTURES_DIR;
		if (dir) {
			await page.screenshot({ path: join(dir, 'image-message.png') });
		}
		await thumb.focus();
		await page.keyboard.press('Enter');
		await page.locator('dialog.image-viewer[open] img').waitFor();
		await page.keyboard.press('Escape');
		await page.locator('dialog.image-viewer[open]').waitFor({ state: 'detached' });
		assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('user-image')), true, 'the focus goes back to the thumbnail');
		await assertCleanAndClose(chat);
	});
});
