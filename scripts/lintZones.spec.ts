// The zones of docs/architecture.md are kept by ESLint (eslint.config.mjs): one deliberately bad
// import in each zone must fail, and the same line where the zone allows it must pass, so a rule
// that stops matching (a glob typo, a block that replaces another) fails here.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..', '..');
const RULES = new Set(['@typescript-eslint/no-restricted-imports', 'max-len']);

const eslint = new ESLint({
	cwd: root,
	// The import rules need no type information; a file that is not on disk has none.
	overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
	ruleFilter: ({ ruleId }) => RULES.has(ruleId),
});

async function problems(file: string, text: string): Promise<string[]> {
	const [result] = await eslint.lintText(text, { filePath: join(root, file) });
	return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

interface Case {
	readonly zone: string;
	readonly file: string;
	readonly bad: string;
	readonly good?: string;
}

const CASES: readonly Case[] = [
	{ zone: 'the adapter boundary', file: 'src/agent/zoneProbe.ts', bad: "import * as vscode from 'vscode';", good: "import type * as vscode from 'vscode';" },
	{ zone: 'the view boundary', file: 'src/transcript/zoneProbe.ts', bad: "import { PROTOCOL_VERSION } from '../protocol/messages';", good: "import { TURN_OUTCOMES } from '../vocabulary/outcomes';" },
	{ zone: 'the view boundary (reminders)', file: 'src/reminders/zoneProbe.ts', bad: "import { rowsOf } from '../view/rows';" },
	{ zone: 'production never imports the fakes', file: 'src/agent/zoneProbe.ts', bad: "import { FakeClock } from '../testing/fakeClock';", good: "import { Emitter } from '../base/event';" },
	{ zone: 'production never imports the fakes (vscode)', file: 'src/vscode/zoneProbe.ts', bad: "import { MemorySecrets } from '../testing/memorySecrets';", good: "import * as vscode from 'vscode';" },
	{ zone: 'specs may use the fakes', file: 'src/agent/zoneProbe.spec.ts', bad: "import * as vscode from 'vscode';", good: "import { FakeClock } from '../testing/fakeClock';" },
	{ zone: 'the protocol imports only zod and the vocabulary', file: 'src/protocol/zoneProbe.ts', bad: "import { AgentRecord } from '../transcript/records';", good: "import { PLAN_DECISIONS } from '../vocabulary/planDecisions';" },
	{ zone: 'the protocol (a package)', file: 'src/protocol/zoneProbe.ts', bad: "import { marked } from 'marked';", good: "import * as z from 'zod';" },
	{ zone: 'the vocabulary imports nothing', file: 'src/vocabulary/zoneProbe.ts', bad: "import * as z from 'zod';" },
	{ zone: 'the vocabulary imports nothing (a sibling)', file: 'src/vocabulary/zoneProbe.ts', bad: "import { GOAL_CHANGES } from './goal';" },
	{ zone: 'the domain never imports the features', file: 'src/agent/zoneProbe.ts', bad: "import { CHAT_FEATURES } from '../features/features';", good: "import type { AgentFeature } from './chatFeature';" },
	{ zone: 'a feature is reached through the list', file: 'src/view/zoneProbe.ts', bad: "import { GoalPresenter } from '../features/goal/goalView';", good: "import { CHAT_FEATURES } from '../features/features';" },
	{ zone: 'a feature is reached through the list (vscode)', file: 'src/vscode/window/zoneProbe.ts', bad: "import { GOAL } from '../../features/goal/feature';", good: "import { agentFeatures } from '../../features/features';" },
	{ zone: 'a feature is reached through the list (specs)', file: 'src/transcript/zoneProbe.spec.ts', bad: "import { GOAL_RECORD } from '../features/goal/goalRecord';", good: "import { CHAT_FEATURES } from '../features/features';" },
	{ zone: 'features may use each other and the view contract', file: 'src/features/zoneProbe/feature.ts', bad: "import { FakeClock } from '../../testing/fakeClock';", good: "import { GOAL } from '../goal/feature';" },
	{ zone: 'the webview shares only the protocol', file: 'webview/zoneProbe.ts', bad: "import { Agent } from '../src/agent/agent';", good: "import { parseHostMessage } from '../src/protocol/messages';" },
];

describe('lint zones', () => {
	for (const probe of CASES) {
		it(`${probe.zone}: a bad import in ${probe.file} fails`, async () => {
			const found = await problems(probe.file, `${probe.bad}\nexport const used = 1;\n`);
			assert.ok(found.some((problem) => problem.startsWith('@typescript-eslint/no-restricted-imports')), `no zone error for ${probe.bad}: ${found.join('; ')}`);
		});
		if (probe.good !== undefined) {
			const good = probe.good;
			it(`${probe.zone}: an allowed import in ${probe.file} passes`, async () => {
				assert.deepEqual(await problems(probe.file, `${good}\nexport const used = 1;\n`), []);
			});
		}
	}
});

describe('the line width', () => {
	const list = (count: number) => Array.from({ length: count }, (_, index) => `item${index}`).join(', ');
	it('code wider than 160 columns fails, in src/ and in the webview', async () => {
		for (const file of ['src/agent/widthProbe.ts', 'webview/widthProbe.ts']) {
			const found = await problems(file, `export const used = [${list(30)}];\n`);
			assert.ok(found.some((problem) => problem.startsWith('max-len')), `no width error in ${file}: ${found.join('; ')}`);
		}
	});

	it('the same items one per line pass, and so does a long string; a long comment fails', async () => {
		const wrapped = `export const used = [\n${Array.from({ length: 30 }, (_, index) => `\titem${index},`).join('\n')}\n];\n`;
		assert.deepEqual(await problems('src/agent/widthProbe.ts', wrapped), []);
		const words = 'word '.repeat(40);
		assert.deepEqual(await problems('src/agent/widthProbe.ts', `export const used = '${words}';\n`), []);
		const comment = await problems('src/agent/widthProbe.ts', `// ${words}\nexport const used = 1;\n`);
		assert.ok(comment.some((problem) => problem.startsWith('max-len')), `no width error for a long comment: ${comment.join('; ')}`);
	});
});
