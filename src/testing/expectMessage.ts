import assert from 'node:assert/strict';
import type { HostMessage } from '../protocol/messages';
import { withArticle } from '../base/words';

/** Asserts that `message` is of `type` and returns it narrowed. */
export function expectMessage<T extends HostMessage['type']>(message: HostMessage | undefined, type: T): Extract<HostMessage, { type: T }> {
	assert.ok(message, `expected ${withArticle(type)} message, got nothing`);
	assert.equal(message.type, type);
	return message as Extract<HostMessage, { type: T }>;
}
