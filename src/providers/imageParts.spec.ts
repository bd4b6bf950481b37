import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import { FAKE_LM_API, FakeTextPart, FakeToolResultPart } from '../testing/fakeLanguageModel';
import { assistantCalls, userText } from '../testing/history';
import { imageFixture, partOf, pngImage } from '../testing/imageFixtures';
import { run } from '../testing/streams';
import { AnthropicProvider } from './anthropic';
import { toLmMessages, type LanguageModelApi } from './languageModel';
import { lmImageInput } from './lmImages';
import type { ChatMessage, ImagePart } from './messages';
import { OpenAICompatibleProvider } from './openaiCompatible';
import type { ChatProvider, ChatRequest } from './provider';

const PNG = partOf(pngImage(3, 2));
const GIF = partOf(imageFixture('tk.gif'));
const SAID = 'The image shot.png (image/png, 3×2 px) is attached.';

/** A PNG whose file is `bytes` long: a real header, then padding. */
function pngOf(bytes: number): ImagePart {
	const head = pngImage(64, 48);
	return partOf(Buffer.concat([head, Buffer.alloc(bytes - head.length)]));
}

function history(...images: ImagePart[]): ChatMessage[] {
	return [userText('Look at shot.png'), assistantCalls('c1'), { role: 'tool', callId: 'c1', content: SAID, images }];
}

/** The body the provider sends for this history to the scripted model server. */
async function bodyOf(make: (server: ModelServer) => ChatProvider, messages: ChatMessage[]): Promise<{ messages: unknown[] }> {
	const server = await startModelServer();
	try {
		server.script({ text: 'ok' });
		const request: ChatRequest = { model: 'm', system: 'You are Aside.', messages, tools: [], maxOutputTokens: 256 };
		const { error } = await run(make(server).stream(request, new AbortController().signal));
		assert.equal(error, undefined);
		return server.requests[0]?.body as { messages: unknown[] };
	} finally {
		await server.close();
	}
}

const anthropic = (server: ModelServer) => new AnthropicProvider({ baseUrl: server.url, apiKey: 'sk-test' });
const openai = (server: ModelServer) => new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1` });

/** The tool_result block of the Anthropic body's last user message, without its cache marker. */
function anthropicResult(body: { messages: unknown[] }): unknown {
	const last = body.messages.at(-1) as { content: { type: string; cache_control?: unknown }[] };
	const { cache_control: _, ...block } = last.content.find((part) => part.type === 'tool_result') ?? {};
	return block;
}

describe('images in tool results, on each provider\'s wire', () => {
	it('Anthropic: a tool_result whose content is a text block, then image blocks with base64 sources', async () => {
		const body = await bodyOf(anthropic, history(PNG, GIF));
		assert.deepEqual(anthropicResult(body), {
			type: 'tool_result',
			tool_use_id: 'c1',
			content: [
				{ type: 'text', text: SAID },
				{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.data } },
				{ type: 'image', source: { type: 'base64', media_type: 'image/gif', data: GIF.data } },
			],
		});
	});

	it('Anthropic: an image past its 5 MB of base64 goes as a line naming it and the bound, the others still as images', async () => {
		const big = pngOf(4 * 1024 * 1024);
		const body = await bodyOf(anthropic, history(big, PNG));
		const content = (anthropicResult(body) as { content: { type: string; text?: string }[] }).content;
		assert.deepEqual(content.map((block) => block.type), ['text', 'text', 'image']);
		assert.equal(content[1]?.text, '[image: image/png, 4 MB, 64×48 px — not shown to the model: it is larger than the Anthropic limit of 5 MB of base64 image data. It is kept in the chat.]');
	});

	it('OpenAI-compatible: the tool message says the images follow; a user message right after carries them as data URLs', async () => {
		const body = await bodyOf(openai, [...history(PNG), userText('and?')]);
		assert.deepEqual(body.messages.slice(3), [
			{ role: 'tool', tool_call_id: 'c1', content: `${SAID}\n\n[The image this tool returned follows in the next user message.]` },
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'The image returned by tool call c1:' },
					{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.data}` } },
				],
			},
			{ role: 'user', content: 'and?' },
		]);
	});

	it('OpenAI-compatible: an image past 20 MB goes as a line in that user message', async () => {
		const body = await bodyOf(openai, history(pngOf(20 * 1024 * 1024 + 1)));
		const images = body.messages.at(-1) as { content: { type: string; text?: string }[] };
		assert.deepEqual(images.content.map((part) => part.type), ['text', 'text']);
		assert.match(images.content[1]?.text ?? '', /^\[image: image\/png, 20 MB, 64×48 px — not shown to the model: it is larger than the OpenAI-compatible limit of 20 MB/);
	});
});

class FakeDataPart {
	constructor(
		readonly data: Uint8Array,
		readonly mimeType: string,
	) {}

	/** As vscode.LanguageModelDataPart.image(data, mime). */
	static image(data: Uint8Array, mime: string): FakeDataPart {
		return new FakeDataPart(data, mime);
	}
}

const LM_API: LanguageModelApi = { ...FAKE_LM_API, LanguageModelDataPart: FakeDataPart };

function lmResult(api: LanguageModelApi, takesImages?: boolean): unknown[] {
	const outgoing = toLmMessages(api, 'system', history(PNG), false, takesImages);
	const last = outgoing.at(-1)?.message as { content: unknown[] };
	const result = last.content[0];
	assert.ok(result instanceof FakeToolResultPart);
	return result.content;
}

describe('images in tool results on vscode.lm', () => {
	it('go as LanguageModelDataPart.image with the bytes and the sniffed MIME type, after the text', () => {
		const [text, image] = lmResult(LM_API);
		assert.deepEqual(text, new FakeTextPart(SAID));
		assert.ok(image instanceof FakeDataPart);
		assert.equal(image.mimeType, 'image/png');
		assert.equal(Buffer.from(image.data).equals(pngImage(3, 2)), true);
	});

	it('a model that does not take images, or an API without data parts, gets the text line: never silence', () => {
		assert.deepEqual(lmResult(LM_API, false), [new FakeTextPart(SAID), new FakeTextPart(`[image: image/png, ${Buffer.from(PNG.data, 'base64').length} bytes, 3×2 px — not shown to the model: this model does not take images. It is kept in the chat.]`)]);
		const [, line] = lmResult(FAKE_LM_API);
		assert.match((line as FakeTextPart).value, /not shown to the model: this version of VS Code has no image parts for language models/);
	});

	it('reads whether the model takes images from capabilities.supportsImageToText, and takes it to when it cannot tell', () => {
		assert.equal(lmImageInput({ capabilities: { supportsImageToText: false, supportsToolCalling: true } }), false);
		assert.equal(lmImageInput({ capabilities: { supportsImageToText: true } }), true);
		assert.equal(lmImageInput({}), undefined);
		const proposed = Object.defineProperty({}, 'capabilities', {
			get() {
				throw new Error('Extension cannot use API proposal: languageModelCapabilities');
			},
		});
		assert.equal(lmImageInput(proposed), undefined);
	});
});
