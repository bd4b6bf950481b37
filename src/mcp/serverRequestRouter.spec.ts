// The router of the servers' sampling and elicitation requests: `aside.mcp.sampling` ask / off /
// allow; the card shows in the chat whose tool call made the request, else the chat in view, and
// nowhere without a chat view; a server's cancel and the end (Stop) of the tool call take the card
// away; a form's answer is checked and takes the schema's defaults; a URL opens only on accept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InFlightCallers, type SamplingRequest, type SamplingResult, type ServerRequestContext } from './serverRequests';
import { McpRequestRouter, NO_CHAT, type SamplingMode } from './serverRequestRouter';

const SILENT = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const REQUEST: SamplingRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'What is 2+2?' }] }], systemPrompt: 'Be brief.', maxTokens: 50 };
const ANSWER: SamplingResult = { text: '4', model: 'claude-test', stopReason: 'endTurn' };

function routerWith(options: { mode?: SamplingMode; inView?: string; chats?: readonly string[]; opens?: boolean } = {}) {
	let mode = options.mode ?? 'ask';
	const sampled: SamplingRequest[] = [];
	const opened: string[] = [];
	const router = new McpRequestRouter({
		chatInView: () => options.inView ?? 'chat-a',
		hasChat: (id) => (options.chats ?? ['chat-a', 'chat-b']).includes(id),
		samplingMode: () => mode,
		sample: (request) => {
			sampled.push(request);
			return Promise.resolve(ANSWER);
		},
		modelWords: () => 'anthropic claude-test',
		openExternal: (url) => {
			opened.push(url);
			return Promise.resolve(options.opens ?? true);
		},
		log: SILENT,
	});
	return { router, sampled, opened, setMode: (next: SamplingMode) => { mode = next; } };
}

const context = (callers: readonly string[] = [], signal = new AbortController().signal): ServerRequestContext => ({ signal, callers });

/** Resolves once a card is waiting (a card is often there as soon as the handler is called). */
function nextCard(router: McpRequestRouter): Promise<void> {
	return new Promise((resolve) => {
		if (router.all().length > 0) {
			resolve();
			return;
		}
		const listener = router.onDidChange(() => {
			if (router.all().length > 0) {
				listener.dispose();
				resolve();
			}
		});
	});
}

describe('McpRequestRouter', () => {
	it('ask: a card in the chat in view shows the request; the model answers only after Allow', async () => {
		const { router, sampled } = routerWith();
		router.attachView();
		const answer = router.handlers('everything').sampling(REQUEST, context());
		await nextCard(router);
		const [card] = router.requests('chat-a');
		assert.equal(card?.kind, 'sampling');
		assert.deepEqual([card.server, card.request, card.model], ['everything', REQUEST, 'anthropic claude-test']);
		assert.deepEqual(router.requests('chat-b'), [], 'not in another chat');
		assert.deepEqual(sampled, [], 'nothing is sent before the person allows it');
		assert.equal(router.answer(card.id, 'accept'), undefined);
		assert.deepEqual(await answer, ANSWER);
		assert.deepEqual(sampled, [REQUEST]);
		assert.deepEqual(router.all(), [], 'the card is gone');
	});

	it('ask: Deny answers the server with an error and samples nothing', async () => {
		const { router, sampled } = routerWith();
		router.attachView();
		const answer = router.handlers('everything').sampling(REQUEST, context());
		await nextCard(router);
		router.answer(router.all()[0]?.view.id ?? '', 'decline');
		await assert.rejects(answer, /The person denied the sampling request/);
		assert.deepEqual(sampled, []);
	});

	it('off refuses with an error, no card; allow samples without one', async () => {
		const { router, sampled, setMode } = routerWith({ mode: 'off' });
		router.attachView();
		await assert.rejects(router.handlers('everything').sampling(REQUEST, context()), /Sampling is turned off in Aside \(aside\.mcp\.sampling is "off"\)/);
		assert.deepEqual([router.all(), sampled], [[], []]);
		setMode('allow');
		assert.deepEqual(await router.handlers('everything').sampling(REQUEST, context()), ANSWER);
		assert.deepEqual([router.all(), sampled], [[], [REQUEST]]);
	});

	it('the card goes to the chat whose tool call made the request, not the one in view', async () => {
		const { router } = routerWith({ inView: 'chat-a' });
		router.attachView();
		const answer = router.handlers('everything').elicitation({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, context(['chat-gone', 'chat-b']));
		await nextCard(router);
		assert.deepEqual(router.requests('chat-a'), []);
		assert.equal(router.requests('chat-b').length, 1);
		router.answer(router.requests('chat-b')[0]?.id ?? '', 'cancel');
		assert.deepEqual(await answer, { action: 'cancel' });
	});

	it('without a chat view the server gets an error', async () => {
		const { router } = routerWith();
		const view = router.attachView();
		view.dispose();
		view.dispose();
		await assert.rejects(router.handlers('everything').sampling(REQUEST, context()), (error: Error) => error.message === NO_CHAT);
		await assert.rejects(router.handlers('everything').elicitation({ mode: 'url', message: 'Pay', url: 'https://pay.example.com/', elicitationId: 'e1' }, context()), /no chat open/);
	});

	it('the server\'s cancel takes the card away and answers cancel', async () => {
		const { router, sampled } = routerWith();
		router.attachView();
		const cancel = new AbortController();
		const form = router.handlers('everything').elicitation({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, context([], cancel.signal));
		const sampling = router.handlers('everything').sampling(REQUEST, context([], cancel.signal));
		await nextCard(router);
		assert.equal(router.all().length, 2);
		const ids = router.all().map((entry) => entry.view.id);
		cancel.abort();
		assert.deepEqual(await form, { action: 'cancel' });
		await assert.rejects(sampling, /cancelled/);
		assert.deepEqual([router.all(), sampled], [[], []]);
		assert.match(router.answer(ids[0] ?? '', 'accept') ?? '', /no longer waiting/, 'a late answer is refused');
	});

	it('Stop of the tool call that made the request ends its waiting card', async () => {
		const { router, sampled } = routerWith();
		router.attachView();
		const callers = new InFlightCallers();
		const ended = callers.begin('chat-b');
		const answer = router.handlers('everything').sampling(REQUEST, { signal: callers.allEnded(), callers: callers.list() });
		await nextCard(router);
		assert.equal(router.requests('chat-b').length, 1);
		ended();
		await assert.rejects(answer, /cancelled/);
		assert.deepEqual([router.all(), sampled], [[], []]);
		assert.equal(callers.allEnded().aborted, false, 'with no call in flight, nothing ends');
	});

	it('a form\'s answer is checked: what is wrong keeps the card; the accepted content takes the schema\'s defaults', async () => {
		const { router } = routerWith();
		router.attachView();
		const schema = {
			type: 'object',
			properties: { email: { type: 'string', format: 'email' }, age: { type: 'integer', default: 30 }, note: { type: 'string' } },
			required: ['email'],
		};
		const answer = router.handlers('everything').elicitation({ mode: 'form', message: 'Who are you?', requestedSchema: schema }, context());
		await nextCard(router);
		const [card] = router.requests('chat-a');
		assert.equal(card?.kind, 'form');
		assert.match(router.answer(card.id, 'accept', { email: 'nope', age: '', note: '' }) ?? '', /^The form is not complete: email: An email address/);
		assert.equal(router.all().length, 1, 'still waiting');
		assert.equal(router.answer(card.id, 'accept', { email: 'ada@example.com', age: '', note: '' }), undefined);
		assert.deepEqual(await answer, { action: 'accept', content: { email: 'ada@example.com', age: 30 } });
	});

	it('a schema a form cannot show is an error to the server', async () => {
		const { router } = routerWith();
		router.attachView();
		const schema = { type: 'object', properties: { nested: { type: 'object' } } };
		await assert.rejects(router.handlers('everything').elicitation({ mode: 'form', message: 'x', requestedSchema: schema }, context()), /Aside cannot show this form: "nested" has the type "object"/);
	});

	it('a URL shows its origin and opens only on accept; decline opens nothing; other schemes are refused', async () => {
		const { router, opened } = routerWith();
		router.attachView();
		const url = 'https://pay.example.com:8443/checkout?session=abc';
		const accepted = router.handlers('billing').elicitation({ mode: 'url', message: 'Pay', url, elicitationId: 'e1' }, context());
		await nextCard(router);
		const [card] = router.requests('chat-a');
		assert.deepEqual(card?.kind === 'url' ? [card.origin, card.url, card.server] : [], ['https://pay.example.com:8443', url, 'billing']);
		assert.deepEqual(opened, [], 'nothing opens before the click');
		router.answer(card?.id ?? '', 'accept');
		assert.deepEqual(await accepted, { action: 'accept' });
		assert.deepEqual(opened, [url]);

		const declined = router.handlers('billing').elicitation({ mode: 'url', message: 'Pay', url, elicitationId: 'e2' }, context());
		await nextCard(router);
		router.answer(router.all()[0]?.view.id ?? '', 'decline');
		assert.deepEqual(await declined, { action: 'decline' });
		assert.deepEqual(opened, [url]);
		await assert.rejects(router.handlers('billing').elicitation({ mode: 'url', message: 'x', url: 'javascript:alert(1)', elicitationId: 'e3' }, context()), /opens only http and https/);
	});

	it('a URL the browser did not open answers cancel', async () => {
		const { router } = routerWith({ opens: false });
		router.attachView();
		const answer = router.handlers('billing').elicitation({ mode: 'url', message: 'Pay', url: 'https://pay.example.com/', elicitationId: 'e1' }, context());
		await nextCard(router);
		router.answer(router.all()[0]?.view.id ?? '', 'accept');
		assert.deepEqual(await answer, { action: 'cancel' });
	});

	it('dispose cancels what waits', async () => {
		const { router } = routerWith();
		router.attachView();
		const answer = router.handlers('everything').elicitation({ mode: 'form', message: 'x', requestedSchema: { type: 'object', properties: {} } }, context());
		await nextCard(router);
		router.dispose();
		assert.deepEqual(await answer, { action: 'cancel' });
	});
});
