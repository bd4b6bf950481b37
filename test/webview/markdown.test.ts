// Assistant Markdown in the real bundle in headless Chromium: each construct becomes the expected
// elements, code blocks copy exactly, links only ever post `link.open`, streaming keeps earlier
// blocks' nodes, and a hostile corpus stays text whether recorded or streamed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentView } from '../../src/protocol/messages';
import { assistant, FORGED_REMINDER, user } from './items';
import { agentView, assertCleanAndClose, type ChatPage, openChat, postedOf, useHarness, viewState } from './page';

const running = (streaming: AgentView['streaming']): AgentView => agentView({ status: { state: 'running', detail: 'Streaming…' }, streaming });
const ANSWER = 'li[data-id="a1"] .markdown';
const STREAM = '[data-kind="streaming"] .markdown';

const DOCUMENT = [
	'# Title',
	'## Second',
	'#### Fourth',
	'Some **bold**, *em*, ~~gone~~ and `inline <b>code</b>` text.  ',
	'after a hard break; &lt;b&gt; &amp; <b>raw tag</b>',
	'',
	'> quoted *text*',
	'',
	'- one',
	'- two',
	'  - nested',
	'',
	'3. three',
	'4. four',
	'',
	'- [ ] todo',
	'- [x] done',
	'',
	'| Left | Center | Right |',
	'|:-----|:------:|------:|',
	'| a | **b** | `c` |',
	'',
	'---',
	'',
	'[site](https://example.com/docs "Docs") <https://example.org> mail@example.com [bad](javascript:void(0))',
	'',
	'![diagram](https://example.com/d.png)',
	'',
	'```ts title="x.ts"',
	'const answer: number = 42; // the answer',
	"const name = 'Aside';",
	'```',
	'',
	'    indented code',
].join('\n');

describe('assistant markdown', () => {
	const harness = useHarness();

	async function withAnswer(text: string): Promise<ChatPage> {
		const chat = await openChat(harness);
		await chat.connect(viewState({ session: { id: 'session-1', title: 'Markdown', items: [user('u1', 'question'), assistant('a1', text)] } }));
		return chat;
	}

	it('renders each construct to its elements, and raw HTML as its literal text', async () => {
		const chat = await withAnswer(DOCUMENT);
		const answer = chat.page.locator(ANSWER);
		const tags = (selector: string) => answer.locator(selector).evaluateAll((nodes) => nodes.map((node) => `${node.tagName.toLowerCase()}:${node.textContent}`));
		assert.deepEqual(await tags('.md-heading'), ['h3:Title', 'h4:Second', 'h6:Fourth'], 'headings capped below the view own');
		assert.deepEqual(await tags('strong, em, del'), ['strong:bold', 'em:em', 'del:gone', 'em:text', 'strong:b']);
		assert.deepEqual(await tags('code.md-inline-code'), ['code:inline <b>code</b>', 'code:c']);
		assert.equal(await answer.locator('p br').count(), 1);
		assert.match(await answer.locator('p').first().textContent() ?? '', /after a hard break; <b> & <b>raw tag<\/b>$/);
		assert.equal(await answer.locator('b').count(), 0, 'raw HTML is text');
		assert.equal(await answer.locator('blockquote em').textContent(), 'text');
		assert.deepEqual(await tags('ul > li > ul > li'), ['li:nested']);
		assert.equal(await answer.locator('ol').getAttribute('start'), '3');
		const boxes = answer.locator('li.md-task input[type="checkbox"]');
		assert.deepEqual(
			await boxes.evaluateAll((nodes) => nodes.map((node) => [(node as HTMLInputElement).checked, (node as HTMLInputElement).disabled])),
			[[false, true], [true, true]],
		);
		assert.deepEqual(await tags('th'), ['th:Left', 'th:Center', 'th:Right']);
		assert.deepEqual(await answer.locator('td').evaluateAll((nodes) => nodes.map((node) => getComputedStyle(node).textAlign)), ['left', 'center', 'right']);
		assert.equal(await answer.locator('.md-table').evaluate((node) => getComputedStyle(node).overflowX), 'auto');
		assert.equal(await answer.locator('hr').count(), 1);
		const links = await answer.locator('a').evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('href'), node.getAttribute('title'), node.textContent]));
		assert.deepEqual(links, [
			['https://example.com/docs', 'https://example.com/docs', 'site'],
			['https://example.org/', 'https://example.org/', 'https://example.org'],
			['mailto:mail@example.com', 'mailto:mail@example.com', 'mail@example.com'],
			['https://example.com/d.png', 'https://example.com/d.png', 'https://example.com/d.png'],
		]);
		assert.equal(await answer.locator('.md-link-refused').textContent(), ' (javascript:void(0))');
		assert.equal(await answer.locator('.md-image').textContent(), '[image: diagram] ');
		assert.equal(await answer.locator('img').count(), 0, 'images never load');
		const blocks = answer.locator('.md-code');
		assert.deepEqual(await blocks.locator('.md-code-language').allTextContents(), ['ts', '']);
		assert.equal(await blocks.nth(0).locator('pre code').textContent(), "const answer: number = 42; // the answer\nconst name = 'Aside';");
		assert.equal(await blocks.nth(1).locator('pre code').textContent(), 'indented code');
		assert.deepEqual(await blocks.nth(0).locator('.hl-keyword').allTextContents(), ['const', 'const']);
		assert.deepEqual(await blocks.nth(0).locator('.hl-type').allTextContents(), ['number']);
		assert.deepEqual(await blocks.nth(0).locator('.hl-number, .hl-string, .hl-comment').allTextContents(), ['42', '// the answer', "'Aside'"]);
		assert.equal(await blocks.nth(1).locator('span[class^="hl-"]').count(), 0, 'no language, no highlighting');
		const style = (selector: string) => chat.page.locator(selector).first().evaluate((node) => getComputedStyle(node).whiteSpace);
		assert.equal(await style(ANSWER), 'normal');
		assert.equal(await style(`${ANSWER} pre`), 'pre');
		await assertCleanAndClose(chat);
	});

	it('highlights the languages it knows, as spans of text, and leaves long code alone', async () => {
		const fence = (language: string, code: string) => `\`\`\`${language}\n${code}\n\`\`\``;
		const code = {
			python: 'def f(x):\n    return "s" # note',
			json: '{"key": 1, "on": true}',
			bash: 'echo "$HOME" # home\nls ${DIR}',
			html: '<a href="x" class=\'y\'>t</a><!-- c -->',
			diff: '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new',
			rust: "fn main() { let c = 'x'; let s: &'static str = \"s\"; }",
			yaml: 'name: aside # c\nversion: 1',
			css: '@media screen { .a { color: red; width: 10px; } }',
			go: 'func main() { fmt.Println(`raw`) }',
			java: '#include <x>\npublic class A { int n = 0x1F; }',
			unknown: 'whatever "this" is // 1',
		};
		const chat = await withAnswer(Object.entries(code).map(([language, text]) => fence(language, text)).join('\n\n') + '\n\n' + fence('ts', 'x'.repeat(100_001)));
		const answer = chat.page.locator(ANSWER);
		const spans = (index: number) => answer.locator('.md-code').nth(index).locator('span[class^="hl-"]').evaluateAll((nodes) => nodes.map((node) => `${(node.getAttribute('class') ?? '').slice(3)}:${node.textContent}`));
		const texts = await answer.locator('.md-code pre').allTextContents();
		assert.deepEqual(texts.slice(0, -1), Object.values(code), 'the code exactly, whatever the spans');
		assert.deepEqual(await spans(0), ['keyword:def', 'function:f', 'keyword:return', 'string:"s"', 'comment:# note']);
		assert.deepEqual(await spans(1), ['name:"key"', 'number:1', 'name:"on"', 'keyword:true']);
		assert.deepEqual(await spans(2), ['keyword:echo', 'string:"$HOME"', 'comment:# home', 'name:${DIR}']);
		assert.deepEqual(await spans(3), ['tag:a', 'name:href', 'string:"x"', 'name:class', "string:'y'", 'tag:a', 'comment:<!-- c -->']);
		assert.deepEqual(await spans(4), ['meta:--- a', 'meta:+++ b', 'keyword:@@ -1 +1 @@', 'del:-old', 'add:+new']);
		assert.deepEqual(await spans(5), ['keyword:fn', 'function:main', 'keyword:let', "string:'x'", 'keyword:let', 'keyword:static', 'type:str', 'string:"s"']);
		assert.deepEqual(await spans(6), ['name:name', 'comment:# c', 'name:version', 'number:1']);
		assert.deepEqual(await spans(7), ['keyword:@media', 'name:color', 'name:width', 'number:10px']);
		assert.deepEqual(await spans(8), ['keyword:func', 'function:main', 'function:Println', 'string:`raw`']);
		assert.deepEqual(await spans(9), ['keyword:#include', 'keyword:public', 'keyword:class', 'type:A', 'keyword:int', 'number:0x1F']);
		assert.deepEqual(await spans(10), [], 'unknown language');
		assert.deepEqual(await spans(11), [], 'over 100 KB');
		await assertCleanAndClose(chat);
	});

	it('copies the exact code by mouse and by keyboard, and flips to Copied for a moment', async () => {
		const code = 'line one  \n\tindented\t\n\n  trailing blank lines\n\n';
		const chat = await withAnswer(`See [the docs](https://example.com).\n\n\`\`\`\n${code}\`\`\``);
		const { page } = chat;
		const copy = page.locator(ANSWER).getByRole('button', { name: 'Copy code' });
		await copy.click();
		assert.deepEqual(await postedOf(chat, 'copy'), [{ type: 'copy', text: code }]);
		const copied = page.locator(ANSWER).getByRole('button', { name: 'Copied' });
		assert.equal(await copied.innerText(), 'Copied');
		assert.equal(await copied.locator('.codicon-check').count(), 1);
		await page.locator(ANSWER).getByRole('button', { name: 'Copy code' }).waitFor({ timeout: 3000 });
		assert.equal(await copy.locator('.codicon-copy').count(), 1, 'back to Copy after a moment');

		// Keyboard: from the link before it, Tab reaches the button and Enter copies.
		await page.locator(`${ANSWER} a`).focus();
		await page.keyboard.press('Tab');
		assert.equal(await copy.evaluate((node) => node === document.activeElement), true);
		assert.equal(await copy.isVisible(), true);
		await page.keyboard.press('Enter');
		assert.equal((await chat.waitForPosted('copy', 2))[1]?.type, 'copy');
		assert.deepEqual((await postedOf(chat, 'copy'))[1], { type: 'copy', text: code });
		await assertCleanAndClose(chat);
	});

	it('opens only http(s) and mailto links, through the host, never navigating the page', async () => {
		const refused = ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'command:workbench.action.terminal.new', 'vscode://settings', '../relative', '//evil.example'];
		const chat = await withAnswer(`[web](https://example.com/a?b=1&amp;c=2) [mail](mailto:me@example.com) ${refused.map((href) => `[no](${href})`).join(' ')}`);
		const { page } = chat;
		const url = page.url();
		await page.getByRole('link', { name: 'web' }).click();
		await page.getByRole('link', { name: 'mail' }).click({ modifiers: ['Control'] });
		await page.getByRole('link', { name: 'web' }).click({ button: 'middle' });
		await page.getByRole('link', { name: 'web' }).focus();
		await page.keyboard.press('Enter');
		assert.deepEqual(await postedOf(chat, 'link.open'), [
			{ type: 'link.open', href: 'https://example.com/a?b=1&c=2' },
			{ type: 'link.open', href: 'mailto:me@example.com' },
			{ type: 'link.open', href: 'https://example.com/a?b=1&c=2' },
		]);
		assert.equal(page.url(), url, 'the page did not navigate');
		assert.equal(page.context().pages().length, 1, 'no window opened');
		assert.equal(await page.locator(`${ANSWER} a`).count(), 2);
		assert.deepEqual(await page.locator(`${ANSWER} .md-link-refused`).allTextContents(), refused.map((href) => ` (${href})`));
		await assertCleanAndClose(chat);
	});

	it('streams: earlier blocks keep their nodes and focus; an unfinished fence is a code block', async () => {
		const chat = await withAnswer('done');
		const { page } = chat;
		await chat.host({ type: 'agent.changed', seq: 1, agent: running({ requestId: 'req-1' }) });
		await chat.host({ type: 'text.streamed', seq: 2, requestId: 'req-1', text: '# Plan\n\nFirst paragraph.\n\n```js\nlet x = 1;\n```\n\nSecond' });
		await page.locator(`${STREAM} .md-code`).waitFor();
		await page.evaluate((selector) => {
			for (const node of document.querySelectorAll(`${selector} > *`)) {
				(node as HTMLElement & { __kept?: string }).__kept = node.tagName;
			}
		}, STREAM);
		await page.locator(STREAM).getByRole('button', { name: 'Copy code' }).focus();
		let seq = 3;
		for (const delta of [' paragraph grows', '\n\n- item', ' one\n- item two', '\n\n```py\nprint(', '1)\n']) {
			await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: delta });
			// A frame between deltas, so each one is a separate update of the view.
			await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
		}
		await page.waitForFunction((selector) => document.querySelector(`${selector} > :last-child code`)?.textContent === 'print(1)', STREAM);
		const blocks = await page.locator(`${STREAM} > *`).evaluateAll((nodes) => nodes.map((node) => `${node.tagName}:${(node as HTMLElement & { __kept?: string }).__kept ?? 'new'}`));
		assert.deepEqual(blocks, ['H3:H3', 'P:P', 'DIV:DIV', 'P:new', 'UL:new', 'DIV:new'], 'the unchanged leading blocks are the same nodes');
		assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Copy code', 'the focused Copy button kept the focus');
		const last = page.locator(`${STREAM} .md-code`).last();
		assert.equal(await last.locator('.md-code-language').textContent(), 'py');
		assert.equal(await last.locator('pre code').textContent(), 'print(1)');
		assert.deepEqual(await page.locator(`${STREAM} li`).allTextContents(), ['item one', 'item two']);
		// A later link definition turns an earlier reference into a link: everything is rebuilt.
		await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: '```\n\nSee [ref].\n' });
		await chat.host({ type: 'text.streamed', seq, requestId: 'req-1', text: '\n[ref]: https://example.com/ref\n' });
		await page.locator(`${STREAM} a[href="https://example.com/ref"]`).waitFor();
		await assertCleanAndClose(chat);
	});

	it('shows very long or deeply nested text as plain text, with a note, and fast', async () => {
		const long = `**x** ${'word '.repeat(40_001)}`;
		const nested = `${'- '.repeat(5000)}a`;
		const slow = '__a'.repeat(60_000);
		for (const text of [long, nested, slow]) {
			const started = Date.now();
			const chat = await withAnswer(text);
			assert.ok(Date.now() - started < 10_000, `rendered in ${Date.now() - started} ms`);
			const answer = chat.page.locator(ANSWER);
			if (text === slow) {
				assert.equal(await answer.textContent(), text, 'shown unformatted, as its text');
			} else {
				assert.match(await answer.locator('.md-note').innerText(), /plain text/);
				assert.equal(await answer.locator('.md-plain').textContent(), text);
				assert.equal(await answer.locator('strong, li').count(), 0);
			}
			await assertCleanAndClose(chat);
		}
	});

	describe('hostile corpus: recorded and streamed, it stays text', () => {
		const PWN = 'window.__pwned=1';
		// [source, text that must be visible]; the visible text defaults to the source itself.
		const CORPUS: [string, string?][] = [
			[`<script>${PWN}</script>`],
			[`<img src=x onerror="${PWN}">`],
			[`Look: <img src=x onerror="${PWN}"> here`],
			[`<svg onload="${PWN}"></svg>`],
			[`<svg><script>${PWN}</script></svg>`],
			[`<math><mi xlink:href="javascript:${PWN}">x</mi></math>`],
			[`<iframe srcdoc="<script>parent.${PWN}</script>"></iframe>`],
			[`<a href="javascript:${PWN}">link</a>`],
			[`<a href="#" onclick="${PWN}">click</a>`],
			[`[x](javascript:${PWN})`, `x (javascript:${PWN})`],
			[`[x](JaVaScRiPt:${PWN})`, `x (JaVaScRiPt:${PWN})`],
			[`[x](  javascript:${PWN})`, `x (javascript:${PWN})`],
			[`[x](<javascript:${PWN}>)`, `x (javascript:${PWN})`],
			[`[x](java&#115;cript:${PWN})`, `x (javascript:${PWN})`],
			['[x](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)', 'x (data:text/html;base64,'],
			['[x](vbscript:msgbox(1))', 'x (vbscript:msgbox(1))'],
			[`![x](javascript:${PWN})`, `[image: x] javascript:${PWN}`],
			[`[x][r]\n\n[r]: javascript:${PWN}`, `x (javascript:${PWN})`],
			[`<javascript:${PWN}>`, `javascript:${PWN}`],
			['<style>body{display:none}</style>'],
			[`<form action="javascript:${PWN}"><button>go</button></form>`],
			[`<details open ontoggle="${PWN}">x</details>`],
			[`<body onload="${PWN}">`],
			[`<object data="javascript:${PWN}"></object><embed src="javascript:${PWN}">`],
			[`<input autofocus onfocus="${PWN}">`],
			[`<meta http-equiv="refresh" content="0;url=javascript:${PWN}">`],
			[`<base href="javascript:${PWN}//">`],
			[`<noscript><p title="</noscript><img src=x onerror=${PWN}>">`],
			[`&lt;script&gt;${PWN}&lt;/script&gt;`, `<script>${PWN}</script>`],
			[`<!-- <script>${PWN}</script> -->`],
			[`<![CDATA[<script>${PWN}</script>]]>`],
			[FORGED_REMINDER],
			[`Sure.\n\n${FORGED_REMINDER}\n\nContinuing.`, FORGED_REMINDER],
			[`| a | <img src=x onerror="${PWN}"> |\n|---|---|\n| <script>${PWN}</script> | b |`, `<img src=x onerror="${PWN}">`],
			[`- <img src=x onerror="${PWN}">\n- [ ] <svg onload="${PWN}">`, `<svg onload="${PWN}">`],
			[`\`<img src=x onerror="${PWN}">\``, `<img src=x onerror="${PWN}">`],
			[`# <img src=x onerror="${PWN}">`, `<img src=x onerror="${PWN}">`],
			[`[a](https://example.test "title\\" onmouseover=\\"${PWN}")`, 'a'],
			[`\`\`\`html\n<script>${PWN}</script>\n\`\`\``, `<script>${PWN}</script>`],
		];
		const DANGEROUS = 'script, iframe, object, embed, img, svg, math, style, form, base, meta, link, video, audio, source, input:not(.md-checkbox), details, template, noscript, system-reminder, a[href^="javascript" i]';

		for (const [source, visible = source] of CORPUS) {
			it(JSON.stringify(source).slice(0, 70), async () => {
				const chat = await openChat(harness);
				const { page } = chat;
				const dialogs: string[] = [];
				page.on('dialog', (dialog) => {
					dialogs.push(dialog.message());
					void dialog.dismiss();
				});
				await chat.connect(viewState({ session: { id: 'session-1', title: 'Hostile', items: [user('u1', 'q')] } }));
				// Any dangerous element added at any moment, even one removed again, is recorded.
				await page.evaluate((selector) => {
					const w = window as unknown as { __added: string[] };
					w.__added = [];
					new MutationObserver((records) => {
						for (const node of records.flatMap((record) => Array.from(record.addedNodes))) {
							const elements = node instanceof Element ? [node, ...Array.from(node.querySelectorAll('*'))] : [];
							for (const element of elements) {
								if (element.matches(selector) || Array.from(element.attributes).some((a) => a.name.toLowerCase().startsWith('on'))) {
									w.__added.push(element.outerHTML.slice(0, 80));
								}
							}
						}
					}).observe(document.body, { childList: true, subtree: true });
				}, DANGEROUS);
				await chat.host({ type: 'items.appended', seq: 1, sessionId: 'session-1', items: [assistant('a1', source)] });
				await chat.host({ type: 'agent.changed', seq: 2, agent: running({ requestId: 'req-1' }) });
				const cut = Math.ceil(source.length / 3);
				let seq = 3;
				for (const delta of [source.slice(0, cut), source.slice(cut, 2 * cut), source.slice(2 * cut)]) {
					await chat.host({ type: 'text.streamed', seq: seq++, requestId: 'req-1', text: delta });
				}
				// The same text renders the same, recorded or streamed.
				await page.waitForFunction(
					([a, b]) => document.querySelector(a)?.textContent === document.querySelector(b)?.textContent,
					[ANSWER, STREAM] as const,
					{ timeout: 5000 },
				);
				await page.waitForTimeout(100); // a load or a handler would have its chance

				const report = await page.evaluate((selector) => {
					const roots = Array.from(document.querySelectorAll('.transcript, .live'));
					const all = roots.flatMap((root) => [root, ...Array.from(root.querySelectorAll('*'))]);
					return {
						pwned: (window as unknown as { __pwned?: unknown }).__pwned,
						added: (window as unknown as { __added: string[] }).__added,
						dangerous: roots.flatMap((root) => Array.from(root.querySelectorAll(selector), (node) => node.tagName)),
						handlers: all.flatMap((node) => Array.from(node.attributes, (a) => a.name).filter((name) => name.toLowerCase().startsWith('on'))),
						hrefs: all.flatMap((node) => ['href', 'src', 'action', 'formaction', 'srcdoc'].flatMap((name) => node.getAttribute(name) ?? [])),
					};
				}, DANGEROUS);
				assert.equal(report.pwned, undefined, 'nothing ran');
				assert.deepEqual(report.added, [], 'no dangerous element, not even for a moment');
				assert.deepEqual(report.dangerous, []);
				assert.deepEqual(report.handlers, []);
				for (const href of report.hrefs) {
					assert.match(href, /^(https?:\/\/|mailto:)/, `only web and mail links: ${href}`);
				}
				for (const selector of [ANSWER, STREAM]) {
					assert.ok((await page.locator(selector).textContent())?.includes(visible), `${selector} shows ${visible}`);
				}
				assert.equal(await page.locator('[data-kind="reminders"], .reminders-toggle, .reminder-entry').count(), 0, 'no forged reminder row');
				assert.deepEqual(dialogs, []);
				await assertCleanAndClose(chat);
			});
		}
	});
});
