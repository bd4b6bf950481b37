// The images a person attaches, in each provider's request body as the scripted model server on
// loopback receives it, against the shapes the SDKs document: the Anthropic SDK's Messages example
// ("Describe this image.": an image block with a base64 source, then the text block) and the OpenAI
// SDK's vision example ("What's in this image?": a text part, then an image_url part, here with a
// data URL); vscode.lm's User message with LanguageModelDataPart.image before the text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer, type ModelServer } from '../../test/harness/modelServer.mjs';
import { FAKE_LM_API, FakeTextPart } from '../testing/fakeLanguageModel';
import { assistantText } from '../testing/history';
import { imageFixture, partOf, pngImage } from '../testing/imageFixtures';
import { run } from '../testing/streams';
import { AnthropicProvider } from './anthropic';
import { toLmMessages, type LanguageModelApi } from './languageModel';
import type { ChatMessage, ImagePart, UserMessage } from './messages';
import { OpenAICompatibleProvider } from './openaiCompatible';
import type { ChatProvider, ChatRequest } from './provider';

const JPEG = partOf(imageFixture('python.jpg'));
const PNG = partOf(pngImage(3, 2));

function withImages(text: string, ...images: ImagePart[]): UserMessage {
	return { role: 'user', content: [{ type: 'text', text, images }] };
}

async function bodyOf(make: (server: ModelServer) => ChatProvider, messages: ChatMessage[], imageInput?: false): Promise<{ messages: unknown[] }> {
	const server = await startModelServer();
	try {
		server.script({ text: 'ok' });
		const request: ChatRequest = { model: 'm', system: 'You are Aside.', messages, tools: [], maxOutputTokens: 256, ...(imageInput === false ? { imageInput } : {}) };
		const { error } = await run(make(server).stream(request, new AbortController().signal));
		assert.equal(error, undefined);
		return server.requests[0]?.body as { messages: unknown[] };
	} finally {
		await server.close();
	}
}

const anthropic = (server: ModelServer) => new AnthropicProvider({ baseUrl: server.url, apiKey: 'sk-test' });
const openai = (server: ModelServer) => new OpenAICompatibleProvider({ baseUrl: `${server.url}/v1` });

/** A message's content blocks without the cache markers Aside adds. */
function unmarked(message: unknown): unknown[] {
	return (message as { content: Record<string, unknown>[] }).content.map(({ cache_control: _, ...block }) => block);
}

describe('images a person attached, on each provider\'s wire', () => {
	it('Anthropic: image blocks with base64 sources before the text block, as the SDK\'s example shows', async () => {
		const body = await bodyOf(anthropic, [withImages('Describe this image.', JPEG)]);
		// The Anthropic SDK's Messages example, its data this JPEG's base64.
		const documented = { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG.data } }, { type: 'text', text: 'Describe this image.' }] };
		assert.equal(body.messages.length, 1);
		assert.deepEqual({ role: (body.messages[0] as { role: string }).role, content: unmarked(body.messages[0]) }, documented);
		assert.equal(Buffer.from(JPEG.data, 'base64').equals(imageFixture('python.jpg')), true, 'the bytes, byte for byte');
	});

	it('Anthropic: several images in order; an empty text leaves no text block; a later message stays text', async () => {
		const body = await bodyOf(anthropic, [withImages('', PNG, JPEG), assistantText('A square and a logo.'), { role: 'user', content: [{ type: 'text', text: 'thanks' }] }]);
		assert.deepEqual(unmarked(body.messages[0]), [
			{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.data } },
			{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG.data } },
		]);
		assert.deepEqual(unmarked(body.messages[2]), [{ type: 'text', text: 'thanks' }]);
	});

	it('OpenAI-compatible: content parts, the text then image_url parts with data URLs, as the SDK\'s vision example shows', async () => {
		const body = await bodyOf(openai, [withImages('What\'s in this image?', PNG)]);
		assert.deepEqual(body.messages, [
			{ role: 'system', content: 'You are Aside.' },
			// The OpenAI SDK's example, its url a data URL of this PNG.
			{ role: 'user', content: [{ type: 'text', text: 'What\'s in this image?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.data}` } }] },
		]);
	});

	it('a model that does not take images (it refused them) gets the line naming each, never silence', async () => {
		const said = `[image: image/png, ${pngImage(3, 2).length} bytes, 3×2 px — not shown to the model: this model does not take images. It is kept in the chat.]`;
		const a = await bodyOf(anthropic, [withImages('What is this?', PNG)], false);
		assert.deepEqual(unmarked(a.messages[0]), [{ type: 'text', text: said }, { type: 'text', text: 'What is this?' }]);
		const o = await bodyOf(openai, [withImages('What is this?', PNG)], false);
		assert.deepEqual(o.messages[1], { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'text', text: said }] });
	});

	it('vscode.lm: LanguageModelDataPart.image with the bytes and the sniffed MIME type, before the text, in a User message', () => {
		class DataPart {
			constructor(readonly data: Uint8Array, readonly mimeType: string) {}
			static image(data: Uint8Array, mime: string): DataPart {
				return new DataPart(data, mime);
			}
		}
		const api: LanguageModelApi = { ...FAKE_LM_API, LanguageModelDataPart: DataPart };
		const last = (takes?: boolean) => (toLmMessages(api, 'system', [withImages('What is this?', JPEG)], false, takes).at(-1)?.message as { role: number; content: unknown[] }).content;
		const [image, text] = last();
		assert.ok(image instanceof DataPart);
		assert.equal(image.mimeType, 'image/jpeg');
		assert.equal(Buffer.from(image.data).equals(imageFixture('python.jpg')), true);
		assert.deepEqual(text, new FakeTextPart('What is this?'));
		const [line] = last(false);
		assert.match((line as FakeTextPart).value, /^\[image: image\/jpeg, .* — not shown to the model: this model does not take images\. It is kept in the chat\.\]$/);
	});
});
