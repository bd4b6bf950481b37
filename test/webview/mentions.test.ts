// The composer's `@` list in the real bundle in headless Chromium: the query it posts, the host's
// answer shown as options (hostile file names as text), keyboard only (arrows, Enter, Tab,
// Escape), aria-activedescendant into a listbox, and the mention text it inserts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ViewMessage } from '../../src/protocol/messages';
import { DANGEROUS_ELEMENTS, FORGED_BLOCK, HOSTILE_CORPUS } from './corpus';
import { agentView, assertCleanAndClose, openChat, postedOf, useHarness, viewState } from './page';

type Query = Extract<ViewMessage, { type: 'mentions.query' }>;

const HOSTILE_NAMES = [`src/${HOSTILE_CORPUS[1] ?? ''}.ts`, 'src/\u202Eevil\u200F.ts', `docs/${FORGED_BLOCK.split('\n')[0] ?? ''}.md`];

describe('the composer\'s @ list', () => {
	const harness = useHarness();

	it('lists what the host found for the text after @, keyboard first, and inserts the chosen mention', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const list = page.getByRole('listbox');
		await input.click();
		await input.pressSequentially('Look at @gr');
		const queries = (await chat.waitForPosted('mentions.query', 3)) as Query[];
		assert.deepEqual(queries.map((query) => query.query), ['', 'g', 'gr'], 'each change of the @ word asks again');
		const last = queries.at(-1);
		assert.ok(last);
		// An answer to an older query is dropped.
		await chat.host({ type: 'mentions.answer', seq: 1, requestId: queries[0]?.requestId, candidates: [{ kind: 'file', path: 'stale.ts' }] });
		await chat.host({
			type: 'mentions.answer',
			seq: 2,
			requestId: last.requestId,
			candidates: [{ kind: 'file', path: 'src/greeting.ts' }, { kind: 'folder', path: 'src/group' }, ...HOSTILE_NAMES.map((path) => ({ kind: 'file', path }))],
		});
		await page.locator('.mention-option', { hasText: 'src/greeting.ts' }).waitFor();
		const labels = await page.locator('.mention-option .mention-label').allInnerTexts();
		assert.deepEqual(labels, ['src/greeting.ts', 'src/group/', ...HOSTILE_NAMES], 'names are shown as the text they are');
		assert.equal(await list.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);

		assert.equal(await input.getAttribute('aria-expanded'), 'true');
		assert.equal(await input.getAttribute('aria-controls'), await list.getAttribute('id'));
		const activeId = async () => input.getAttribute('aria-activedescendant');
		assert.equal(await activeId(), 'composer-mention-0');
		assert.equal(await page.locator('#composer-mention-0').getAttribute('aria-selected'), 'true');
		await input.press('ArrowDown');
		assert.equal(await activeId(), 'composer-mention-1');
		await input.press('ArrowUp');
		await input.press('ArrowUp');
		assert.equal(await activeId(), `composer-mention-${labels.length - 1}`, 'the arrows wrap around');
		await input.press('ArrowDown');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Aside', 'the focus stays in the message box');

		await input.press('Enter');
		assert.equal(await input.inputValue(), 'Look at @src/greeting.ts ', 'Enter inserts the mention, not sends');
		assert.equal(await list.isVisible(), false);
		assert.equal(await input.getAttribute('aria-expanded'), 'false');
		assert.equal((await postedOf(chat, 'submit')).length, 0);

		// A folder, by Tab.
		await input.pressSequentially('and @gr');
		const next = ((await chat.waitForPosted('mentions.query', 6)) as Query[]).at(-1);
		await chat.host({ type: 'mentions.answer', seq: 3, requestId: next?.requestId, candidates: [{ kind: 'folder', path: 'src/group' }, { kind: 'file', path: 'my notes.md' }] });
		await page.locator('.mention-option', { hasText: 'src/group/' }).waitFor();
		await input.press('Tab');
		assert.equal(await input.inputValue(), 'Look at @src/greeting.ts and @src/group/ ');

		await input.press('Enter');
		const [submit] = await chat.waitForPosted('submit');
		assert.deepEqual(submit, { type: 'submit', text: 'Look at @src/greeting.ts and @src/group/ ' });
		await assertCleanAndClose(chat);
	});

	it('offers the keywords, quotes a name with a space, and closes on Escape until the @ word is left', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const list = page.getByRole('listbox');
		await input.click();
		await input.pressSequentially('@pro');
		await page.locator('.mention-option', { hasText: '@problems' }).waitFor();
		assert.deepEqual(await page.locator('.mention-option .mention-label').allInnerTexts(), ['@problems'], 'the keywords match without the host');
		await input.press('Tab');
		assert.equal(await input.inputValue(), '@problems ');

		await input.pressSequentially('@');
		await page.locator('.mention-option', { hasText: '@changes' }).waitFor();
		assert.deepEqual(await page.locator('.mention-option .mention-label').allInnerTexts(), ['@problems', '@selection', '@changes']);
		await input.press('Escape');
		assert.equal(await list.isVisible(), false, 'Escape closes it');
		assert.equal(await input.inputValue(), '@problems @', 'and keeps the text');
		await input.pressSequentially('se');
		assert.equal(await list.isVisible(), false, 'it stays closed while the same @ word is typed');
		await input.pressSequentially(' @my');
		const query = ((await chat.waitForPosted('mentions.query', 1)) as Query[]).at(-1);
		assert.equal(query?.query, 'my');
		await chat.host({ type: 'mentions.answer', seq: 1, requestId: query.requestId, candidates: [{ kind: 'file', path: 'my notes.md' }] });
		await page.locator('.mention-option', { hasText: 'my notes.md' }).waitFor();
		await input.press('Enter');
		assert.equal(await input.inputValue(), '@problems @se @"my notes.md" ');
		await assertCleanAndClose(chat);
	});

	it('lists the skills after $, keyboard only, descriptions as text, and inserts $name', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const list = page.getByRole('listbox');
		await input.click();
		await input.pressSequentially('Use $re');
		const query = ((await chat.waitForPosted('mentions.query', 3)) as Query[]).at(-1);
		assert.deepEqual({ query: query?.query, trigger: query?.trigger }, { query: 're', trigger: '$' });
		const hostile = HOSTILE_CORPUS.slice(0, 4).join(' ');
		await chat.host({
			type: 'mentions.answer',
			seq: 1,
			requestId: query?.requestId,
			candidates: [],
			skills: [
				{ name: 'release-notes', description: `Writes release notes. ${FORGED_BLOCK}` },
				{ name: 'review', description: hostile },
			],
		});
		await page.locator('.mention-option', { hasText: '$release-notes' }).waitFor();
		assert.deepEqual(await page.locator('.mention-option .mention-label').allInnerTexts(), ['$release-notes', '$review']);
		const details = await page.locator('.mention-option .mention-detail').allInnerTexts();
		assert.ok(details[0]?.includes('<system-reminder key="permission.verdict">'), 'a description is shown as the text it is');
		assert.ok(!details.join('').includes('\n'), 'on one line');
		assert.equal(await list.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
		await input.press('ArrowDown');
		assert.equal(await input.getAttribute('aria-activedescendant'), 'composer-mention-1');
		await input.press('Enter');
		assert.equal(await input.inputValue(), 'Use $review ', 'Enter inserts $name, not sends');
		assert.equal((await postedOf(chat, 'submit')).length, 0);

		// A $ inside a word or before a variable name opens nothing; a bare $ with no skills says so.
		await input.pressSequentially('a$b costs $HOME ');
		assert.equal(await list.isVisible(), false);
		await input.pressSequentially('$');
		const bare = ((await chat.waitForPosted('mentions.query', 1)) as Query[]).at(-1);
		assert.deepEqual({ query: bare?.query, trigger: bare?.trigger }, { query: '', trigger: '$' });
		await chat.host({ type: 'mentions.answer', seq: 2, requestId: bare?.requestId, candidates: [], skills: [] });
		await page.locator('.mention-option', { hasText: 'No skills' }).waitFor();
		assert.equal(await page.locator('.mention-option').getAttribute('aria-disabled'), 'true');
		await input.press('Enter');
		assert.equal(await input.inputValue(), 'Use $review a$b costs $HOME $', 'the "No skills" line is never inserted');
		await input.press('Escape');
		assert.equal(await list.isVisible(), false);
		await assertCleanAndClose(chat);
	});

	it('shows what a chat feature offers (`@mcp:` and the MCP servers\' resources) after the keywords, as text, and inserts the mention the host wrote', async () => {
		const chat = await openChat(harness);
		await chat.connect(viewState({ agent: agentView({ status: { state: 'ready', detail: 'Ready.' } }) }));
		const { page } = chat;
		const input = page.getByRole('textbox', { name: 'Message Aside' });
		const list = page.getByRole('listbox');
		await input.click();
		await input.pressSequentially('Read @mc');
		const first = ((await chat.waitForPosted('mentions.query', 3)) as Query[]).at(-1);
		assert.equal(first?.query, 'mc');
		await chat.host({
			type: 'mentions.answer',
			seq: 1,
			requestId: first.requestId,
			candidates: [{ kind: 'file', path: 'src/mcp.ts' }],
			offers: [{ insert: '@mcp:', label: '@mcp:', detail: 'a resource of an MCP server', partial: true }],
		});
		await page.locator('.mention-option', { hasText: '@mcp:' }).waitFor();
		assert.deepEqual(await page.locator('.mention-option .mention-label').allInnerTexts(), ['@mcp:', 'src/mcp.ts'], 'the offers before the files');
		await input.press('Tab');
		assert.equal(await input.inputValue(), 'Read @mcp:', 'the prefix goes in without a space, and the list asks again');
		const resources = ((await chat.waitForPosted('mentions.query', 4)) as Query[]).at(-1);
		assert.equal(resources?.query, 'mcp:');
		const hostile = `mcp:docs/${HOSTILE_CORPUS[1] ?? ''}`;
		await chat.host({
			type: 'mentions.answer',
			seq: 2,
			requestId: resources.requestId,
			candidates: [],
			offers: [
				{ insert: '@mcp:docs/demo://guide', label: 'mcp:docs/demo://guide', detail: 'Guide (text/markdown)' },
				{ insert: '@mcp:"docs/file:///my notes/a b.md"', label: 'mcp:docs/file:///my notes/a b.md', detail: 'My notes' },
				{ insert: '@mcp:x', label: hostile, detail: FORGED_BLOCK },
			],
		});
		await page.locator('.mention-option', { hasText: 'mcp:docs/demo://guide' }).waitFor();
		assert.deepEqual(await page.locator('.mention-option .mention-label').allInnerTexts(), ['mcp:docs/demo://guide', 'mcp:docs/file:///my notes/a b.md', hostile], 'labels as the text they are');
		assert.equal(await list.locator(DANGEROUS_ELEMENTS).count(), 0);
		assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
		await input.pressSequentially('note');
		// Until the host answers `mcp:note`, the options of the last answer that still match stay.
		await page.locator('.mention-option', { hasText: 'my notes' }).waitFor();
		assert.deepEqual(await page.locator('.mention-option .mention-label').allInnerTexts(), ['mcp:docs/file:///my notes/a b.md']);
		await input.press('Enter');
		assert.equal(await input.inputValue(), 'Read @mcp:"docs/file:///my notes/a b.md" ', 'the host\'s text, quoted as it wrote it');
		assert.equal((await postedOf(chat, 'submit')).length, 0);

		// What a list says instead of offering is never inserted.
		await input.pressSequentially('and @mcp:');
		const bare = ((await chat.waitForPosted('mentions.query', 1)) as Query[]).at(-1);
		await chat.host({ type: 'mentions.answer', seq: 3, requestId: bare?.requestId, candidates: [], offers: [{ insert: '', label: 'No MCP resources', detail: 'no connected MCP server offers resources', inert: true }] });
		await page.locator('.mention-option', { hasText: 'No MCP resources' }).waitFor();
		assert.equal(await page.locator('.mention-option').getAttribute('aria-disabled'), 'true');
		await input.press('Tab');
		assert.equal(await input.inputValue(), 'Read @mcp:"docs/file:///my notes/a b.md" and @mcp:');
		await input.press('Escape');
		assert.equal(await list.isVisible(), false);
		await assertCleanAndClose(chat);
	});
});
