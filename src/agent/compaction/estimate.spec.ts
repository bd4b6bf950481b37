import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../providers/messages';
import { T0, toolResult } from '../../testing/transcriptFixtures';
import type { AssistantRecord } from '../../transcript/records';
import { CHARS_PER_TOKEN, conversationTokens, messageChars } from './estimate';

const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=', width: 750, height: 400 };

describe('the context estimate with images', () => {
	it('counts an image in a tool result as width × height / 750 tokens, in a tool message and in a user message\'s result', () => {
		const tool: ChatMessage = { role: 'tool', callId: 'c1', content: 'seen', images: [image] };
		assert.equal(messageChars(tool), 4 + 400 * CHARS_PER_TOKEN);
		const user: ChatMessage = { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: 'seen', images: [image, { ...image, width: undefined, height: undefined }] }] };
		assert.equal(messageChars(user), 4 + (400 + 1600) * CHARS_PER_TOKEN);
	});

	it('counts a recorded result\'s images after the last reported usage, loaded or not', () => {
		const usage: AssistantRecord = { kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at: T0, text: 'ok', toolCalls: [], stop: 'end', usage: { inputTokens: 1000, outputTokens: 0 } };
		const plain = toolResult('r1', 'abcd');
		assert.equal(conversationTokens([usage, plain], '', []), 1001);
		const missing = { ...plain, images: [{ mimeType: 'image/png', bytes: 10, file: 'r1.image-1.png', width: 750, height: 400 }] };
		assert.equal(conversationTokens([usage, missing], '', []), 1001 + 400);
	});
});
