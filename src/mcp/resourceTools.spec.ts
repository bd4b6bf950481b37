import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pngImage } from '../testing/imageFixtures';
import { invokeTool } from '../tools/registry';
import type { ToolContext } from '../tools/tool';
import { READ_TOOL, resourceTools } from './resourceTools';
import type { McpContent } from './session';

describe('McpReadResource', () => {
	it('shows an image resource to the model as an image part, named in the text, and a text one as its text', async () => {
		const png = pngImage(4, 3).toString('base64');
		const contents: Record<string, McpContent[]> = {
			'demo://logo': [{ type: 'resource', uri: 'demo://logo', mimeType: 'image/png', blob: png }],
			'demo://readme': [{ type: 'resource', uri: 'demo://readme', mimeType: 'text/markdown', text: '# Demo' }],
		};
		const [, read] = resourceTools({
			withResources: () => ['demo'],
			listResources: () => Promise.resolve([]),
			readResource: (_server, uri) => Promise.resolve(contents[uri] ?? []),
		});
		assert.equal(read?.name, READ_TOOL);
		const context = { signal: new AbortController().signal } as unknown as ToolContext;
		const image = await invokeTool(read, { server: 'demo', uri: 'demo://logo' }, context);
		assert.deepEqual(image.images, [{ mimeType: 'image/png', width: 4, height: 3, data: png }]);
		assert.match(image.content, /\[image \(resource demo:\/\/logo\): image\/png, \d+ bytes, 4×3 px — attached\]/);
		const text = await invokeTool(read, { server: 'demo', uri: 'demo://readme' }, context);
		assert.equal(text.images, undefined);
		assert.match(text.content, /# Demo/);
	});
});
