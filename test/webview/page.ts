// Serves the real built webview (dist/webview) with the extension's own HTML and CSP on
// loopback, opens it in headless Chromium with `acquireVsCodeApi` stubbed, and lets a test post
// host messages and read what the webview posted.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../harness/browser.mjs';
import { PROTOCOL_VERSION, type ViewMessage, type ViewState } from '../../src/protocol/messages';
import { agentView } from '../../src/testing/agentView';
import { displayRows } from '../../src/view/rowOrder';
import { webviewHtml } from '../../src/vscode/webviewHtml';

export { agentView };

const ASSETS = join(process.cwd(), 'dist', 'webview');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

export interface ViewHarness {
	readonly browser: Browser;
	readonly server: Server;
	readonly origin: string;
	close(): Promise<void>;
}

export async function startHarness(): Promise<ViewHarness> {
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		if (url.pathname === '/') {
			const origin = `http://${request.headers.host ?? ''}`;
			const html = webviewHtml({ cspSource: origin, assetUrl: (name) => `${origin}/${name}`, nonce: 'test-nonce-0123456789' });
			response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
			return;
		}
		if (url.pathname === '/favicon.ico') {
			// Chromium asks for one; a VS Code webview never does.
			response.writeHead(204).end();
			return;
		}
		const name = url.pathname.slice(1);
		if (!/^[\w.-]+$/.test(name)) {
			response.writeHead(404).end();
			return;
		}
		readFile(join(ASSETS, name)).then(
			(body) => response.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(body),
			() => response.writeHead(404).end(),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const browser = await launchChromium();
	return {
		browser,
		server,
		origin,
		async close() {
			await browser.close();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/**
 * One server and Chromium for the enclosing `describe`: started before its first test, closed
 * after its last. Call it at the top of the `describe` body.
 */
export function useHarness(): ViewHarness {
	let started: ViewHarness | undefined;
	before(async () => {
		started = await startHarness();
	});
	after(async () => {
		await started?.close();
	});
	const current = (): ViewHarness => started ?? assert.fail('the webview harness is used outside a test');
	return {
		get browser() {
			return current().browser;
		},
		get server() {
			return current().server;
		},
		get origin() {
			return current().origin;
		},
		close: () => current().close(),
	};
}

/** What the page saw that a test may assert on. */
export interface ChatPage {
	readonly page: Page;
	/** Every message the webview posted to the "host", in order. */
	posted(): Promise<ViewMessage[]>;
	waitForPosted(type: ViewMessage['type'], count?: number): Promise<ViewMessage[]>;
	/** Posts a message as the host would (anything: tests also post invalid ones). */
	host(message: unknown): Promise<void>;
	/** Security-policy violations and page errors seen so far. */
	readonly problems: string[];
	/** Opens the page and answers the ready handshake with this state. */
	connect(state: ViewState): Promise<void>;
}

export async function openChat(harness: ViewHarness): Promise<ChatPage> {
	const page = await harness.browser.newPage();
	const problems: string[] = [];
	page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
	page.on('console', (message) => {
		if (message.type() === 'error') {
			problems.push(`console: ${message.text()}`);
		}
	});
	// The VS Code webview API, stubbed: posts are recorded; state survives a reload like VS Code's.
	await page.addInitScript(() => {
		const w = window as unknown as { __posted: unknown[]; acquireVsCodeApi: () => unknown; __violations: string[] };
		w.__posted = [];
		w.__violations = [];
		document.addEventListener('securitypolicyviolation', (event) => {
			w.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
		});
		let acquired = false;
		w.acquireVsCodeApi = () => {
			if (acquired) {
				throw new Error('acquireVsCodeApi called twice');
			}
			acquired = true;
			return {
				postMessage: (message: unknown) => w.__posted.push(JSON.parse(JSON.stringify(message)) as unknown),
				getState: () => {
					const saved = sessionStorage.getItem('vscode-state');
					return saved === null ? undefined : (JSON.parse(saved) as unknown);
				},
				setState: (state: unknown) => {
					sessionStorage.setItem('vscode-state', JSON.stringify(state));
				},
			};
		};
	});
	const chat: ChatPage = {
		page,
		problems,
		posted: () => page.evaluate(() => (window as unknown as { __posted: ViewMessage[] }).__posted),
		async waitForPosted(type, count = 1) {
			await page.waitForFunction(
				([t, n]) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === t).length >= n,
				[type, count] as const,
			);
			return (await chat.posted()).filter((m) => m.type === type);
		},
		async host(message) {
			await page.evaluate((m) => {
				window.postMessage(m, '*');
			}, message);
		},
		async connect(state) {
			await page.goto(harness.origin);
			await chat.waitForPosted('ready');
			await chat.host({ type: 'snapshot', seq: 0, protocol: PROTOCOL_VERSION, state });
			await page.locator('#app[aria-busy="false"]').waitFor();
		},
	};
	return chat;
}

export async function violations(page: Page): Promise<string[]> {
	return page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
}

/** Every test ends here: no CSP violation, no page error, then the page closes. */
export async function assertCleanAndClose(chat: ChatPage): Promise<void> {
	assert.deepEqual(await violations(chat.page), [], 'no Content-Security-Policy violations');
	assert.deepEqual(chat.problems, [], 'no page errors');
	await chat.page.close();
}

/** The messages of one type the webview posted so far. */
export async function postedOf<T extends ViewMessage['type']>(chat: ChatPage, type: T): Promise<Extract<ViewMessage, { type: T }>[]> {
	return (await chat.posted()).filter((m): m is Extract<ViewMessage, { type: T }> => m.type === type);
}

/**
 * A snapshot's state. Tests give a session's items in record order, as the host projects them;
 * the session carries the rows the host sends for them (src/view/rows.ts): those shown, in
 * display order.
 */
export function viewState(overrides: Partial<ViewState> = {}): ViewState {
	const state: ViewState = {
		session: { id: 'session-1', title: 'New chat', items: [] },
		settings: { sendShortcut: 'enter', maxMessageLength: 100_000 },
		agent: agentView(),
		context: { reminders: [] },
		tasks: { rows: [], open: 0 },
		commands: [
			{ name: '/compact', args: '[what to keep]', summary: 'compact the chat now' },
			{ name: '/goal', args: '[objective | budget 200k | done | clear]', summary: 'set or change the chat\'s goal' },
		],
		...overrides,
	};
	return { ...state, session: { ...state.session, items: displayRows(state.session.items) } };
}
