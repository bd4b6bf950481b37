import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { nodeToolContext, tempWorkspace } from '../testing/nodeWorkspace';
import { editTool } from './edit';
import { ToolError } from './errors';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { readTool } from './read';
import { BUILTIN_TOOLS, declareTouches, invokeTool, prepareTool, toolSpecs, toolsFor, withEditTools } from './registry';
import { runTool } from './run';
import { taskListTool } from './taskList';
import { taskWriteTool } from './taskWrite';
import { NO_TOUCHES, type Tool, type ToolTouches, touchesNothing } from './tool';
import { writeTool } from './write';

const context = nodeToolContext(['/nonexistent-aside-root']);

function fakeTool(run: Tool<{ n: number }>['run']): Tool<{ n: number }> {
	return { name: 'Fake', description: 'A test tool.', kind: 'read', input: z.object({ n: z.number() }), touches: touchesNothing, run };
}

describe('toolSpecs', () => {
	const specs = toolSpecs(BUILTIN_TOOLS);
	const required: Record<string, string[]> = {
		Read: ['path'],
		List: [],
		Glob: ['pattern'],
		Grep: ['pattern'],
		Edit: ['path', 'old_string', 'new_string'],
		Write: ['path', 'content'],
		ApplyPatch: ['patch'],
		Run: ['command'],
		RunOutput: ['id'],
		RunStop: ['id'],
		TaskWrite: ['tasks'],
		TaskList: [],
		LSP: ['operation'],
		WebFetch: ['url'],
		AskUserQuestion: ['questions'],
	};

	it('has one spec per built-in tool, in order', () => {
		assert.deepEqual(specs.map((spec) => spec.name), ['Read', 'List', 'Glob', 'Grep', 'Edit', 'Write', 'ApplyPatch', 'Run', 'RunOutput', 'RunStop', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch', 'AskUserQuestion']);
	});

	for (const spec of specs) {
		it(`${spec.name}: an object schema with its required fields, every field described, no $schema`, () => {
			const schema = spec.inputSchema as {
				type?: unknown;
				required?: unknown;
				properties?: Record<string, { description?: unknown }>;
				$schema?: unknown;
				additionalProperties?: unknown;
			};
			assert.equal(schema.type, 'object');
			assert.deepEqual(schema.required ?? [], required[spec.name]);
			assert.equal(schema.$schema, undefined);
			assert.equal(schema.additionalProperties, false);
			for (const [field, property] of Object.entries(schema.properties ?? {})) {
				assert.equal(typeof property.description, 'string', `${spec.name}.${field} is described`);
			}
			assert.ok(spec.description.length > 40);
			assert.doesNotMatch(JSON.stringify(schema), /9007199254740991/);
		});
	}
});

describe('invokeTool', () => {
	it('returns validation errors naming the tool and the field', async () => {
		const result = await invokeTool(readTool, { offset: 0 }, context);
		assert.equal(result.isError, true);
		assert.equal(result.content, 'Invalid input for Read: path: Invalid input: expected string, received undefined; offset: Too small: expected number to be >=1');
		assert.match((await invokeTool(readTool, 'a.ts', context)).content, /^Invalid input for Read: \(input\): Invalid input: expected object/);
	});

	it('never throws: a throw or a rejection becomes an error result', async () => {
		const throwing = fakeTool(() => {
			throw new Error('boom');
		});
		assert.deepEqual(await invokeTool(throwing, { n: 1 }, context), { isError: true, content: 'Fake failed: boom' });
		const rejecting = fakeTool(() => Promise.reject(new Error('later')));
		assert.deepEqual(await invokeTool(rejecting, { n: 1 }, context), { isError: true, content: 'Fake failed: later' });
		const refusing = fakeTool(() => Promise.reject(new ToolError('No such thing.')));
		assert.deepEqual(await invokeTool(refusing, { n: 1 }, context), { isError: true, content: 'No such thing.' });
	});

	it('passes the parsed input and returns the result', async () => {
		const echo = fakeTool(({ n }) => Promise.resolve({ content: `n=${n}` }));
		assert.deepEqual(await invokeTool(echo, { n: 2, extra: true }, context), { content: 'n=2' });
	});

	it('does not start a tool when already cancelled, and stops waiting for one when cancelled', async () => {
		let runs = 0;
		const never = fakeTool(() => {
			runs++;
			return new Promise(() => undefined);
		});
		const controller = new AbortController();
		controller.abort();
		assert.deepEqual(await invokeTool(never, { n: 1 }, { ...context, signal: controller.signal }), { isError: true, content: 'Fake was cancelled before it finished.' });
		assert.equal(runs, 0);
		const later = new AbortController();
		const running = invokeTool(never, { n: 1 }, { ...context, signal: later.signal });
		later.abort();
		assert.deepEqual(await running, { isError: true, content: 'Fake was cancelled before it finished.' });
		assert.equal(runs, 1);
	});

	it('waits for a write to finish, and reports what it did', async () => {
		const controller = new AbortController();
		const write: Tool<{ n: number }> = {
			...fakeTool(async () => {
				controller.abort();
				await new Promise((resolve) => setTimeout(resolve, 20));
				return { content: 'written' };
			}),
			kind: 'write',
		};
		assert.deepEqual(await invokeTool(write, { n: 1 }, { ...context, signal: controller.signal }), { content: 'written' });
	});

	it('a tool failing because it was cancelled reads as cancelled', async () => {
		const controller = new AbortController();
		const failing = fakeTool(() => {
			controller.abort();
			return Promise.reject(new Error('AbortError'));
		});
		assert.equal((await invokeTool(failing, { n: 1 }, { ...context, signal: controller.signal })).content, 'Fake was cancelled before it finished.');
	});
});

describe('prepareTool', () => {
	it('read tools have nothing to confirm; invalid input or a failing confirm is the result', async () => {
		assert.deepEqual(await prepareTool(readTool, { path: 'a.ts' }, context), { ok: true, confirmation: undefined });
		const invalid = await prepareTool(readTool, {}, context);
		assert.equal(invalid.ok, false);
		const failing: Tool<{ n: number }> = { ...fakeTool(() => Promise.resolve({ content: '' })), confirm: () => Promise.reject(new Error('nope')) };
		assert.deepEqual(await prepareTool(failing, { n: 1 }, context), { ok: false, result: { isError: true, content: 'Fake failed: nope' } });
	});
});

describe('declareTouches', () => {
	it('each built-in tool declares, before it runs, every file its result says it read or wrote', async (t) => {
		const workspace = tempWorkspace('aside-touches-');
		t.after(() => {
			workspace.dispose();
		});
		const on = nodeToolContext([workspace.root]);
		const file = (name: string) => join(workspace.root, name);
		writeFileSync(file('a.ts'), 'const a = 1;\n');
		const calls: [Tool, unknown, ToolTouches][] = [
			[readTool, { path: 'a.ts' }, { reads: [file('a.ts')], writes: [] }],
			[editTool, { path: 'a.ts', old_string: '1', new_string: '2' }, { reads: [], writes: [file('a.ts')] }],
			[writeTool, { path: 'new/b.ts', content: 'const b = 1;\n' }, { reads: [], writes: [file('new/b.ts')] }],
		];
		for (const [tool, input, declared] of calls) {
			assert.deepEqual(await declareTouches(tool, input, on), declared, `${tool.name} declares`);
			const result = await invokeTool(tool, input, on);
			assert.equal(result.isError, undefined, result.content);
			const touched = (result.touched ?? []).map((touch) => ({ path: touch.path, access: touch.access }));
			const expected = [...declared.reads.map((path) => ({ path, access: 'read' })), ...declared.writes.map((path) => ({ path, access: 'written' }))];
			assert.deepEqual(touched, expected, `${tool.name} reports what it declared`);
		}
		for (const tool of [listTool, globTool, grepTool, runTool, taskWriteTool, taskListTool]) {
			assert.deepEqual(await tool.touches(undefined as never, on), NO_TOUCHES, `${tool.name} names no file`);
		}
	});

	it('never throws: invalid input, a path outside the workspace or a failing declaration declare nothing', async () => {
		assert.deepEqual(await declareTouches(readTool, { offset: 1 }, context), NO_TOUCHES);
		assert.deepEqual(await declareTouches(editTool, { path: '/etc/passwd', old_string: 'a', new_string: 'b' }, context), NO_TOUCHES);
		const failing: Tool<{ n: number }> = { ...fakeTool(() => Promise.resolve({ content: '' })), touches: () => Promise.reject(new Error('nope')) };
		assert.deepEqual(await declareTouches(failing, { n: 1 }, context), NO_TOUCHES);
		const declaring: Tool<{ n: number }> = { ...failing, touches: ({ n }) => Promise.resolve({ reads: [`/r${n}`], writes: [`/w${n}`] }) };
		assert.deepEqual(await declareTouches(declaring, { n: 2, extra: true }, context), { reads: ['/r2'], writes: ['/w2'] }, 'with the parsed input');
	});
});

describe('toolsFor', () => {
	const names = (tools: readonly Tool[]) => tools.map((tool) => tool.name);

	it('plan mode gets the read tools (the task list\'s included) and WebFetch (it asks); an untrusted workspace only the read tools, none of the background processes\' (Run is refused there) and no WebFetch', () => {
		assert.deepEqual(names(toolsFor('plan', true)), ['Read', 'List', 'Glob', 'Grep', 'RunOutput', 'RunStop', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch', 'AskUserQuestion']);
		assert.deepEqual(names(toolsFor('agent', false)), ['Read', 'List', 'Glob', 'Grep', 'TaskWrite', 'TaskList', 'LSP', 'AskUserQuestion']);
	});

	it('otherwise every tool', () => {
		assert.deepEqual(names(toolsFor('agent', true)), ['Read', 'List', 'Glob', 'Grep', 'Edit', 'Write', 'ApplyPatch', 'Run', 'RunOutput', 'RunStop', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch', 'AskUserQuestion']);
	});

	it('offers only the edit tools aside.tools.edit chooses, in their usual order; the other tools stay', () => {
		assert.deepEqual(names(withEditTools(['ApplyPatch', 'Edit'])), ['Read', 'List', 'Glob', 'Grep', 'Edit', 'ApplyPatch', 'Run', 'RunOutput', 'RunStop', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch', 'AskUserQuestion']);
		assert.deepEqual(names(withEditTools([])), ['Read', 'List', 'Glob', 'Grep', 'Run', 'RunOutput', 'RunStop', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch', 'AskUserQuestion']);
		assert.deepEqual(names(toolsFor('plan', true, withEditTools(['Write']))), ['Read', 'List', 'Glob', 'Grep', 'RunOutput', 'RunStop', 'TaskWrite', 'TaskList', 'LSP', 'WebFetch', 'AskUserQuestion']);
	});
});
