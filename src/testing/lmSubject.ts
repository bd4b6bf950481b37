// The vscode.lm provider as a subject of the provider contract, on the fake Language Model API
// (fakeLanguageModel.ts): replies are parts the fake model streams, and usage is what the
// provider counts with the model's countTokens (the fake counts words).
import { LanguageModelProvider } from '../providers/languageModel';
import type { ChatRequest } from '../providers/provider';
import { FAKE_LM_API, FakeLanguageModel, FakeLanguageModelError, FakeTextPart, FakeToolCallPart, words, type FakeReply } from './fakeLanguageModel';
import { userText } from './history';
import type { ContractReply, ProviderSubject, Refusal } from './providerSubject';

/** The reply's text in pieces of four characters, as the HTTP servers stream it, then its tool calls. */
function partsOf(reply: ContractReply): unknown[] {
	const chars = Array.from(reply.text ?? '');
	const pieces: string[] = [];
	for (let i = 0; i < chars.length; i += 4) {
		pieces.push(chars.slice(i, i + 4).join(''));
	}
	return [...pieces.map((piece) => new FakeTextPart(piece)), ...(reply.toolCalls ?? []).map((call) => new FakeToolCallPart(call.id, call.name, call.input))];
}

function textOfRequest(request: ChatRequest): string[] {
	return request.messages.flatMap((message) => (message.role === 'user' ? message.content.map((part) => (part.type === 'text' ? part.text : part.content)) : []));
}

const REFUSALS: readonly [string, Error, Refusal<FakeReply>['kind']][] = [
	['NoPermissions (the person did not allow Aside to use the model)', FakeLanguageModelError.NoPermissions('consent not given'), 'auth'],
	['Blocked (quota)', FakeLanguageModelError.Blocked('quota exceeded'), 'rate-limit'],
	['NotFound (the model went away)', FakeLanguageModelError.NotFound('no such model'), 'bad-request'],
	['any other error', new Error('Request Failed: 500'), 'server'],
];

export const LANGUAGE_MODEL: ProviderSubject<FakeReply> = {
	name: 'LanguageModelProvider',
	with: async (test) => {
		const model = new FakeLanguageModel();
		await test({
			provider: new LanguageModelProvider(model, FAKE_LM_API),
			script: (...replies) => {
				model.script(...replies);
			},
			sent: () => model.requests.length,
			released: () => (model.requests.at(-1)?.token.isCancellationRequested ? Promise.resolve() : Promise.reject(new Error("the request's token was not cancelled"))),
		});
	},
	request: (overrides = {}) => ({ model: 'gpt-4o', system: 'You are Aside.', messages: [userText('hi')], tools: [], maxOutputTokens: 512, ...overrides }),
	reply: (reply) => ({ parts: partsOf(reply) }),
	usage: (reply, request) => ({
		type: 'usage',
		inputTokens: [request.system, ...textOfRequest(request)].reduce((sum, text) => sum + words(text), 0),
		outputTokens: words(reply.text ?? ''),
	}),
	toolCallId: (suffix) => `call_${suffix}`,
	stopReasons: [
		[{ parts: [new FakeTextPart('x')] }, 'end'],
		[{ parts: [new FakeTextPart('x'), new FakeToolCallPart('call_1', 'List', {})] }, 'tool-use'],
	],
	refusals: REFUSALS.map(([name, thrown, kind]) => ({ name, step: { reject: thrown }, kind, message: new RegExp(thrown.message) })),
	broken: { step: { parts: [new FakeTextPart('Half an ans')], thenThrow: new Error('connection reset') }, streamed: [{ type: 'text', text: 'Half an ans' }], kind: 'server', retryable: true },
	hang: { parts: [], hang: true },
};
