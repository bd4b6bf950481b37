// The other agents' instruction files a Read brings into scope: nested CLAUDE.md, the
// path-scoped .github/instructions/*.instructions.md (their applyTo globs) and Cursor's
// .cursor/rules/*.mdc (their globs).
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { Owner } from '../reminders/definition';
import { ReminderEngine } from '../reminders/engine';
import type { InjectionRecord } from '../reminders/record';
import type { TurnEvent } from '../reminders/turnEvents';
import { FakeClock } from '../testing/fakeClock';
import { MemoryRecorder } from '../testing/memoryRecorder';
import { RecordingLogger } from '../testing/recordingLogger';
import { NodeWorkspaceFs, tempWorkspace } from '../testing/nodeWorkspace';
import { InstructionFiles, type InstructionFilesOptions } from './instructionFiles';
import { MalformedInstructions } from './instructionSources';

const ROOT_OWNER: Owner = { kind: 'root', id: 'turn-1' };
const NEXT_TURN: Owner = { kind: 'root', id: 'turn-2' };

async function deliver(ownerId: string, event: TurnEvent): Promise<InjectionRecord[]> {
	const recorder = new MemoryRecorder();
	const engine = new ReminderEngine({ recorder, clock: new FakeClock(), log: new RecordingLogger() });
	const owner = engine.beginUserTurn(ownerId);
	assert.ok(engine.queueTurnEvent(owner, event));
	const injection = engine.wait({ requestId: 'req-1', owner, phase: 'turn-start', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }, undefined);
	await injection.commit();
	return recorder.records;
}

function setup(t: TestContext, options: InstructionFilesOptions = {}) {
	const workspace = tempWorkspace('aside-instruction-kinds-');
	t.after(() => {
		workspace.dispose();
	});
	const path = (name: string) => join(workspace.root, name);
	const write = (name: string, text: string) => {
		mkdirSync(dirname(path(name)), { recursive: true });
		writeFileSync(path(name), text);
		return path(name);
	};
	const told: string[] = [];
	const fs = new NodeWorkspaceFs();
	const instructions = new InstructionFiles(
		fs,
		() => [workspace.root],
		{ malformed: new MalformedInstructions((message) => told.push(message)), ...options },
	);
	return { root: workspace.root, fs, path, write, instructions, told };
}

function given(event: TurnEvent | undefined): string[] {
	return [...(event?.body ?? '').matchAll(/^Contents of (.+?)(?: \(.*\))?:$/gm)].map((match) => match[1] ?? '');
}

const TS_RULES = '---\napplyTo: "**/*.ts"\n---\nUse strict TypeScript.\n';

describe('InstructionFiles: other agents\' files', () => {
	it('gives the nested CLAUDE.md and CLAUDE.local.md like AGENTS.md: broad to narrow, AGENTS before CLAUDE in one folder, the root left to the roster', async (t) => {
		const { write, path, instructions } = setup(t);
		write('CLAUDE.md', 'root claude');
		write('pkg/CLAUDE.local.md', 'my pkg claude');
		write('pkg/CLAUDE.md', 'pkg claude');
		write('pkg/AGENTS.md', 'pkg agents');
		write('pkg/core/CLAUDE.md', 'core claude');
		write('pkg/core/a.ts', 'code');
		const event = await instructions.afterRead(ROOT_OWNER, path('pkg/core/a.ts'));
		assert.deepEqual(given(event), ['pkg/AGENTS.md', 'pkg/CLAUDE.md', 'pkg/CLAUDE.local.md', 'pkg/core/CLAUDE.md']);
		assert.match(event?.body ?? '', /Contents of pkg\/CLAUDE\.md:\n\npkg claude/);
	});

	it('gives a path-scoped .instructions.md after a Read of a matching file, with its globs and without its frontmatter; not after a Read of another', async (t) => {
		const { write, path, instructions } = setup(t);
		write('.github/instructions/ts.instructions.md', TS_RULES);
		write('src/a.ts', 'code');
		write('docs/a.md', 'text');
		assert.equal(await instructions.afterRead(ROOT_OWNER, path('docs/a.md')), undefined, 'a .md file does not match **/*.ts');
		const event = await instructions.afterRead(ROOT_OWNER, path('src/a.ts'));
		assert.deepEqual(given(event), ['.github/instructions/ts.instructions.md']);
		assert.match(event?.body ?? '', /Contents of \.github\/instructions\/ts\.instructions\.md \(applies to the files matching \*\*\/\*\.ts\):\n\nUse strict TypeScript\./);
		assert.doesNotMatch(event?.body ?? '', /applyTo/);
		assert.match(event?.body ?? '', /Those headed with patterns \(from \.github\/instructions or \.cursor\/rules\) apply only to the files the patterns match/);
	});

	it('matches a list of globs, leaves root ones (no applyTo, or **) to the roster, and orders folder files before path-scoped ones, those by name', async (t) => {
		const { write, path, instructions } = setup(t);
		write('.github/instructions/b-src.instructions.md', '---\napplyTo:\n  - "src/**"\n  - "lib/**"\n---\nsrc rules');
		write('.github/instructions/a-ts.instructions.md', TS_RULES);
		write('.github/instructions/all.instructions.md', '---\napplyTo: "**"\n---\nfor all');
		write('.github/instructions/plain.instructions.md', 'no frontmatter');
		write('.github/instructions/py.instructions.md', '---\napplyTo: "**/*.py"\n---\npy rules');
		write('src/pkg/AGENTS.md', 'pkg rules');
		write('src/pkg/a.ts', 'code');
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('src/pkg/a.ts'))), ['src/pkg/AGENTS.md', '.github/instructions/a-ts.instructions.md', '.github/instructions/b-src.instructions.md']);
	});

	it('gives each once per content: a second matching Read gives nothing, a changed file again, marked as changed; nothing before the commit', async (t) => {
		const { write, path, instructions } = setup(t);
		write('.github/instructions/ts.instructions.md', TS_RULES);
		write('src/a.ts', 'a');
		write('src/b.ts', 'b');
		const first = await instructions.afterRead(ROOT_OWNER, path('src/a.ts'));
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('src/b.ts'))), ['.github/instructions/ts.instructions.md'], 'not committed yet: given again');
		first?.commit?.();
		assert.equal(await instructions.afterRead(NEXT_TURN, path('src/b.ts')), undefined);
		write('.github/instructions/ts.instructions.md', TS_RULES.replace('strict', 'very strict'));
		const changed = await instructions.afterRead(NEXT_TURN, path('src/b.ts'));
		assert.deepEqual(given(changed), ['.github/instructions/ts.instructions.md']);
		assert.match(changed?.body ?? '', /changed since you were last given it/);
	});

	it('reads only the kinds the setting names, read again at each Read', async (t) => {
		let kinds: readonly ('AGENTS.md' | 'CLAUDE.md' | '.instructions.md')[] = ['AGENTS.md'];
		const { write, path, instructions } = setup(t, { kinds: () => kinds });
		write('pkg/CLAUDE.md', 'pkg claude');
		write('pkg/AGENTS.md', 'pkg agents');
		write('.github/instructions/ts.instructions.md', TS_RULES);
		write('pkg/a.ts', 'code');
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('pkg/a.ts'))), ['pkg/AGENTS.md']);
		kinds = ['CLAUDE.md', '.instructions.md'];
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('pkg/a.ts'))), ['pkg/CLAUDE.md', '.github/instructions/ts.instructions.md']);
	});

	it('skips a malformed .instructions.md, naming it once; the others still apply', async (t) => {
		const { write, path, instructions, told } = setup(t);
		write('.github/instructions/bad.instructions.md', '---\napplyTo: "src/[a-"\n---\nnever given');
		write('.github/instructions/ts.instructions.md', TS_RULES);
		write('src/a.ts', 'code');
		write('src/b.ts', 'code');
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('src/a.ts'))), ['.github/instructions/ts.instructions.md']);
		await instructions.afterRead(ROOT_OWNER, path('src/b.ts'));
		assert.equal(told.length, 1);
		assert.match(told[0] ?? '', /\.github\/instructions\/bad\.instructions\.md is skipped: applyTo "src\/\[a-" is not a valid glob/);
	});

	it('restores a path-scoped delivery from the records, and redelivers it after a compaction dropped it', async (t) => {
		const { root, fs, write, path, instructions } = setup(t);
		write('.github/instructions/ts.instructions.md', TS_RULES);
		write('pkg/CLAUDE.md', 'pkg claude');
		write('pkg/a.ts', 'code');
		const event = await instructions.afterRead(ROOT_OWNER, path('pkg/a.ts'));
		assert.ok(event);
		const records = await deliver(ROOT_OWNER.id, event);
		assert.deepEqual(records[0]?.entries[0]?.subjects?.map((subject) => subject.ref), [path('pkg/CLAUDE.md'), path('.github/instructions/ts.instructions.md')]);
		// Reopened: restored from the records, nothing again.
		const reopened = new InstructionFiles(fs, () => [root]);
		reopened.restore(records);
		assert.equal(await reopened.afterRead(NEXT_TURN, path('pkg/a.ts')), undefined);
		// Compacted: the kept history holds none of it; both come back at once, broad to narrow, without a Read.
		reopened.restore([]);
		const again = await reopened.redeliver(NEXT_TURN, records);
		assert.deepEqual(given(again), ['pkg/CLAUDE.md', '.github/instructions/ts.instructions.md']);
		assert.match(again?.body ?? '', /applies to the files matching \*\*\/\*\.ts/);
		// One that lost its applyTo since is the roster's now: not redelivered here.
		write('.github/instructions/ts.instructions.md', 'for every file now');
		assert.deepEqual(given(await reopened.redeliver(NEXT_TURN, records)), ['pkg/CLAUDE.md']);
	});

	it('gives a Cursor rule with globs (Cursor\'s unquoted string, or a list) after a Read of a matching file, without its frontmatter, after .instructions.md; not after a Read of another', async (t) => {
		const { write, path, instructions } = setup(t);
		write('.cursor/rules/ts.mdc', '---\ndescription: TypeScript\nglobs: **/*.ts, **/*.tsx\nalwaysApply: false\n---\nCursor says: no any.\n');
		write('.cursor/rules/web.mdc', '---\nglobs:\n  - web/**\n  - "**/*.css"\n---\nweb rules');
		write('.github/instructions/ts.instructions.md', TS_RULES);
		write('src/a.ts', 'code');
		write('web/b.css', 'css');
		write('docs/a.md', 'text');
		assert.equal(await instructions.afterRead(ROOT_OWNER, path('docs/a.md')), undefined, 'a .md file matches neither');
		const event = await instructions.afterRead(ROOT_OWNER, path('src/a.ts'));
		assert.deepEqual(given(event), ['.github/instructions/ts.instructions.md', '.cursor/rules/ts.mdc']);
		assert.match(event?.body ?? '', /Contents of \.cursor\/rules\/ts\.mdc \(applies to the files matching \*\*\/\*\.ts, \*\*\/\*\.tsx\):\n\nCursor says: no any\.\n$/);
		assert.doesNotMatch(event?.body ?? '', /alwaysApply|description:/);
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('web/b.css'))), ['.cursor/rules/web.mdc']);
	});

	it('gives no alwaysApply, description-only or manual Cursor rule after a Read (the roster\'s, or never), nor one turned off with its kind', async (t) => {
		let kinds: readonly ('.cursor/rules' | 'AGENTS.md')[] = ['.cursor/rules'];
		const { write, path, instructions } = setup(t, { kinds: () => kinds });
		write('.cursor/rules/always.mdc', '---\nglobs: src/**\nalwaysApply: true\n---\nalways');
		write('.cursor/rules/asked.mdc', '---\ndescription: Migrations\n---\nasked');
		write('.cursor/rules/manual.mdc', 'no frontmatter');
		write('.cursor/rules/scoped.mdc', '---\nglobs: src/**\n---\nscoped');
		write('src/a.ts', 'code');
		assert.deepEqual(given(await instructions.afterRead(ROOT_OWNER, path('src/a.ts'))), ['.cursor/rules/scoped.mdc']);
		kinds = ['AGENTS.md'];
		assert.equal(await instructions.afterRead(ROOT_OWNER, path('src/a.ts')), undefined);
	});

	it('skips a malformed Cursor rule, naming it once, and one whose real path leads outside the workspace', async (t) => {
		const { write, path, instructions, told } = setup(t);
		const outside = tempWorkspace('aside-instruction-kinds-outside-');
		t.after(() => {
			outside.dispose();
		});
		writeFileSync(join(outside.root, 'secret.mdc'), '---\nglobs: **/*.ts\n---\nfrom outside');
		write('.cursor/rules/bad.mdc', '---\nglobs: src/**\nalwaysApply: "true"\n---\nnever given');
		write('.cursor/rules/good.mdc', '---\nglobs: src/**\n---\ngood');
		symlinkSync(join(outside.root, 'secret.mdc'), path('.cursor/rules/linked.mdc'));
		write('src/a.ts', 'code');
		write('src/b.ts', 'code');
		const event = await instructions.afterRead(ROOT_OWNER, path('src/a.ts'));
		assert.deepEqual(given(event), ['.cursor/rules/good.mdc']);
		assert.doesNotMatch(event?.body ?? '', /from outside/);
		await instructions.afterRead(ROOT_OWNER, path('src/b.ts'));
		assert.equal(told.length, 1);
		assert.match(told[0] ?? '', /\.cursor\/rules\/bad\.mdc is skipped: alwaysApply must be true or false/);
	});

	it('redelivers a path-scoped Cursor rule after a compaction dropped it', async (t) => {
		const { root, fs, write, path, instructions } = setup(t);
		write('.cursor/rules/ts.mdc', '---\nglobs: **/*.ts\n---\nts rules');
		write('src/a.ts', 'code');
		const event = await instructions.afterRead(ROOT_OWNER, path('src/a.ts'));
		assert.ok(event);
		const records = await deliver(ROOT_OWNER.id, event);
		const reopened = new InstructionFiles(fs, () => [root]);
		reopened.restore([]);
		assert.deepEqual(given(await reopened.redeliver(NEXT_TURN, records)), ['.cursor/rules/ts.mdc']);
		write('.cursor/rules/ts.mdc', '---\nalwaysApply: true\n---\nts rules for all');
		assert.equal(await reopened.redeliver(NEXT_TURN, records), undefined, 'the roster\'s now');
	});
});
