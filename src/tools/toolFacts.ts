// What the rest of Aside decides per built-in tool, said once: its names in Claude Code (for agent
// profiles, hook matchers and a hook's `tool_name`), what a profile may do with it, whether hooks,
// the edit-tool setting and the permission rules count it among the tools that change files, what a
// cut-off call may leave behind, what a recorded call showed. Code elsewhere asks these facts and
// never names a tool; a name added to BuiltinToolName without its row does not compile.
import { claudeFilePath, claudePatchCalls, type ClaudeToolCall } from './claudeCalls';

/** The built-in tools (src/tools/ and the harness's Agent tool), by the `name` in each one's own file. */
export type BuiltinToolName = 'Read' | 'List' | 'Glob' | 'Grep' | 'Edit' | 'Write' | 'ApplyPatch' | 'Run' | 'RunOutput' | 'RunStop' | 'Agent' | 'TaskWrite' | 'TaskList' | 'LSP' | 'WebFetch' | 'AskUserQuestion';

export interface ToolFacts {
	/** Claude Code's name for it: what a hook reads as `tool_name`, and what a profile or a hook matcher may write for it. */
	readonly claudeName: string;
	/** Claude Code's other names for it, which a profile or a hook matcher may also use (its MultiEdit is Edit here). */
	readonly claudeAliases: readonly string[];
	/**
	 * In agent profiles, which may name every built-in tool: `listed` — a profile that only disallows
	 * other tools still gives it; `spawns` — naming it is what lets the child start agents of its own,
	 * so only a profile that names it gives it; `never` — the root loop's own (the chat's background
	 * processes, which no sub-agent has; the person, whom only the root asks), so no child gets it.
	 */
	readonly inProfiles: 'listed' | 'spawns' | 'never';
	/** Hooks see it as a tool that changes files: a matcher naming any of CLAUDE_FILE_TOOLS guards it. */
	readonly hooksSeeFileChange: boolean;
	/** One of the edit tools the `aside.tools.edit` setting chooses among. */
	readonly editChoice: boolean;
	/** A permission rule naming it covers every tool that writes (`Edit(src/**)`), as in Claude Code. */
	readonly ruleCoversWrites: boolean;
	/** A call of it that was cut off may have left processes running (session.recovery says so). */
	readonly leavesProcesses: boolean;
	/** A permission rule naming Run covers it, matched against the command of the background process it reaches; it never asks. */
	readonly ruledAsRun: boolean;
	/** For calls already recorded: the input field naming the file a successful call showed the model (what its `touches` declares as `reads`). */
	readonly readsFileNamedBy?: string;
	/** Claude Code's fields for a call's input, added beside Aside's in a hook's `tool_input` (never replacing one). */
	readonly claudeFields?: (fields: Readonly<Record<string, unknown>>, folder: string) => Record<string, unknown>;
	/** A call that is several of Claude Code's (a patch: one per file), as those calls; undefined when it is described as one. */
	readonly claudeCalls?: (input: unknown, folder: string, claudeName: string) => readonly ClaudeToolCall[] | undefined;
}

const NONE: readonly string[] = [];

/** The facts a row leaves out: a tool with none of them. */
const PLAIN = {
	claudeAliases: NONE,
	inProfiles: 'listed',
	hooksSeeFileChange: false,
	editChoice: false,
	ruleCoversWrites: false,
	leavesProcesses: false,
	ruledAsRun: false,
} as const;

/** A tool that changes files, as hooks and the edit-tool setting see it. */
const FILE_CHANGE = { hooksSeeFileChange: true, editChoice: true } as const;

// Literal types kept for EditToolName and WRITE_RULE_TOOL; everyone else reads TOOL_FACTS.
const ROWS = {
	Read: { ...PLAIN, claudeName: 'Read', readsFileNamedBy: 'path', claudeFields: claudeFilePath },
	List: { ...PLAIN, claudeName: 'LS' },
	Glob: { ...PLAIN, claudeName: 'Glob' },
	Grep: {
		...PLAIN,
		claudeName: 'Grep',
		claudeFields: (fields) => (fields.caseSensitive === false ? { '-i': true } : {}),
	},
	Edit: { ...PLAIN, ...FILE_CHANGE, claudeName: 'Edit', claudeAliases: ['MultiEdit'], ruleCoversWrites: true, claudeFields: claudeFilePath },
	Write: { ...PLAIN, ...FILE_CHANGE, claudeName: 'Write', claudeFields: claudeFilePath },
	ApplyPatch: { ...PLAIN, ...FILE_CHANGE, claudeName: 'ApplyPatch', claudeCalls: claudePatchCalls },
	Run: {
		...PLAIN,
		claudeName: 'Bash',
		leavesProcesses: true,
		// Bash's `timeout` is in milliseconds, as Run's timeout_ms.
		claudeFields: (fields) => (typeof fields.timeout_ms === 'number' ? { timeout: fields.timeout_ms } : {}),
	},
	// Claude Code's tools for its background shells: BashOutput (TaskOutput in later versions) and KillShell (KillBash before).
	RunOutput: { ...PLAIN, claudeName: 'BashOutput', claudeAliases: ['TaskOutput'], inProfiles: 'never', ruledAsRun: true },
	RunStop: { ...PLAIN, claudeName: 'KillShell', claudeAliases: ['KillBash'], inProfiles: 'never', ruledAsRun: true },
	Agent: { ...PLAIN, claudeName: 'Task', inProfiles: 'spawns' },
	TaskWrite: { ...PLAIN, claudeName: 'TodoWrite' },
	TaskList: { ...PLAIN, claudeName: 'TaskList' },
	// Its rename writes, but its calls are mostly reads: hooks guarding file changes do not see it (a matcher naming LSP does).
	LSP: { ...PLAIN, claudeName: 'LSP' },
	WebFetch: { ...PLAIN, claudeName: 'WebFetch' },
	// The person is the root loop's to ask: a sub-agent cannot reach them.
	AskUserQuestion: { ...PLAIN, claudeName: 'AskUserQuestion', inProfiles: 'never' },
} as const satisfies Record<BuiltinToolName, ToolFacts>;

/** One row per built-in tool, in the order the docs list them. */
export const TOOL_FACTS: Readonly<Record<BuiltinToolName, ToolFacts>> = ROWS;

/** Every built-in tool's name, in the table's order. */
export const BUILTIN_TOOL_NAMES = Object.keys(TOOL_FACTS) as readonly BuiltinToolName[];

/** The facts of the built-in tool named `name` exactly, or undefined for any other name (an MCP tool's). */
export function builtinToolFacts(name: string): ToolFacts | undefined {
	return Object.hasOwn(TOOL_FACTS, name) ? TOOL_FACTS[name as BuiltinToolName] : undefined;
}

type YesNoFact = { [F in keyof ToolFacts]-?: ToolFacts[F] extends boolean ? F : never }[keyof ToolFacts];
type ToolsWhere<F extends YesNoFact> = { [K in BuiltinToolName]: (typeof ROWS)[K][F] extends true ? K : never }[BuiltinToolName];

function toolsWhere<F extends YesNoFact>(fact: F): readonly ToolsWhere<F>[] {
	return BUILTIN_TOOL_NAMES.filter((name): name is ToolsWhere<F> => TOOL_FACTS[name][fact]);
}

/** The edit tools `aside.tools.edit` chooses among (its default: all of them, in the table's order). */
export type EditToolName = ToolsWhere<'editChoice'>;
export const EDIT_TOOL_NAMES = toolsWhere('editChoice');

/** The tool whose permission rules cover every tool that writes: `Edit(…)`, as in Claude Code. */
export const WRITE_RULE_TOOL: ToolsWhere<'ruleCoversWrites'> = only(toolsWhere('ruleCoversWrites'), 'ruleCoversWrites');

/** The tool whose permission rules also cover the tools of its background processes (`Run(npm run dev)` refuses RunOutput of it too). */
export const PROCESS_RULE_TOOL: ToolsWhere<'leavesProcesses'> = only(toolsWhere('leavesProcesses'), 'leavesProcesses');

function only<K>(names: readonly K[], fact: string): K {
	const [one] = names;
	if (one === undefined || names.length > 1) {
		throw new Error(`Exactly one built-in tool must have ${fact}; ${names.length} do.`);
	}
	return one;
}

/** Claude Code's tools that change files: a hook matcher naming any of them guards every tool whose hooks see a file change (ApplyPatch too). */
export const CLAUDE_FILE_TOOLS: readonly string[] = ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'];
