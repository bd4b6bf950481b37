// The scripted model server answers concurrent requests deterministically: a step with `match`
// goes to the first request whose body contains it, whenever it arrives; the others take the
// unmatched steps in order (what the sub-agent integration test relies on).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startModelServer } from '../../test/harness/modelServer.mjs';

async function ask(url: string, text: string): Promise<string> {
	const response = await fetch(`${url}/v1/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'test-model', stream: true, messages: [{ role: 'user', content: text }] }),
	});
	const body = await response.text();
	// The streamed text deltas, joined.
	return [...body.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join('');
}

describe('the scripted model server: matched steps', () => {
	it('gives a matched step to the request that contains its string, and the unmatched ones in order', async () => {
		const server = await startModelServer();
		try {
			server.script({ text: 'first plain' }, { match: 'CHILD-B', text: 'for b' }, { match: 'CHILD-A', text: 'for a' }, { text: 'second plain' });
			assert.equal(await ask(server.url, 'the root asks'), 'first plain');
			assert.equal(await ask(server.url, 'I am CHILD-A'), 'for a');
			assert.equal(await ask(server.url, 'the root again'), 'second plain');
			assert.equal(await ask(server.url, 'I am CHILD-B'), 'for b');
			assert.equal(server.pending(), 0);
			assert.equal(await ask(server.url, 'nothing left'), 'ok');
		} finally {
			await server.close();
		}
	});
});
