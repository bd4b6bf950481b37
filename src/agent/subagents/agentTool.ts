// The Agent tool: what the model calls to hand a self-contained task to a sub-agent. A harness
// tool, run by the turn loop itself (it needs the caller's scope: its transcript, owner path,
// mode and model), never by the tool box. Its description says what a child is and what comes
// back; it never lists the profiles — the agents.listing reminder does — so the tool list, and
// with it the provider's prompt cache, stays the same when a profile file changes.
import * as z from 'zod';
import type { ToolSpec } from '../../providers/provider';
import { tidySchema } from '../../tools/registry';

export const AGENT_TOOL_NAME = 'Agent';

export const AgentToolInput = z.object({
	agent: z.string().min(1).describe('The name of the agent profile to run, as the agents.listing reminder names them (e.g. explore).'),
	prompt: z
		.string()
		.min(1)
		.describe('The complete task for the sub-agent: it sees nothing of this conversation, so say what to do, what you already know, and what its answer must contain.'),
	description: z.string().min(1).max(200).describe('A few words saying what the sub-agent does, shown to the user (e.g. "Find the config loader").'),
});
export type AgentToolInput = z.infer<typeof AgentToolInput>;

const DESCRIPTION = [
	'Runs a sub-agent: a separate agent with its own conversation, tools and step budget, that works on one self-contained task and returns its final answer to you as this tool\'s result.',
	'Use it for work that would fill your context with material you do not need to keep (searching a large codebase, reading many files) or that runs independently beside yours; several Agent calls in one answer run at the same time.',
	'The sub-agent sees only the prompt you give it, not this conversation: put everything it needs in the prompt, and say what its answer must contain. Its answer is not shown to the user; tell them what matters from it.',
	'The available agent profiles are listed in the agents.listing reminder.',
].join(' ');

let spec: ToolSpec | undefined;

/** What the model is told of the Agent tool (the same object every time). */
export function agentToolSpec(): ToolSpec {
	spec ??= { name: AGENT_TOOL_NAME, description: DESCRIPTION, inputSchema: tidySchema(z.toJSONSchema(AgentToolInput)) as Record<string, unknown> };
	return spec;
}

/** The call's input, or why it is not one, in words naming the field. */
export function parseAgentInput(input: unknown): { readonly ok: true; readonly input: AgentToolInput } | { readonly ok: false; readonly error: string } {
	const parsed = AgentToolInput.safeParse(input);
	if (parsed.success) {
		return { ok: true, input: parsed.data };
	}
	const issues = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`).join('; ');
	return { ok: false, error: `Invalid input for Agent: ${issues}.` };
}
