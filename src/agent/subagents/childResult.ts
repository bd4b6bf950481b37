// What the parent reads as an Agent call's result: the child's final answer (the text of its last
// answer), and how it ended when that was not simply done — the step limit, a failure, Stop —
// with the steps it took, under its owner path (the one its task rows carry).
import type { ToolResult } from '../../tools/tool';
import type { AgentRecord } from '../../transcript/records';
import type { TurnOutcome } from '../turnScope';

/** The text of the child's last answer that said anything. */
export function lastAnswer(records: readonly AgentRecord[]): string | undefined {
	for (let i = records.length - 1; i >= 0; i--) {
		const record = records[i];
		if (record?.kind === 'assistant' && record.text.trim() !== '') {
			return record.text;
		}
	}
	return undefined;
}

function stepsOf(count: number): string {
	return count === 1 ? '1 step' : `${count.toLocaleString('en-US')} steps`;
}

/** `steps`: the model samples the child took; `limit`: its step budget. */
export function childResult(path: string, outcome: TurnOutcome, steps: number, limit: number, answer: string | undefined): ToolResult {
	switch (outcome.outcome) {
		case 'done':
			return { content: `${answer ?? '(The sub-agent finished without an answer.)'}\n\n(Sub-agent ${path} finished in ${stepsOf(steps)}.)` };
		case 'step-limit':
			return {
				content: `${answer ?? '(The sub-agent gave no answer.)'}\n\n(Sub-agent ${path} stopped at its step limit: ${steps.toLocaleString('en-US')} of ${stepsOf(limit)}. Its work may be incomplete.)`,
			};
		case 'failed':
			return {
				isError: true,
				content: `Sub-agent ${path} failed after ${stepsOf(steps)}: ${outcome.error ?? 'unknown error'}${answer === undefined ? '' : `\n\nIts last answer before that:\n${answer}`}`,
			};
		case 'interrupted':
			return {
				isError: true,
				content: `Sub-agent ${path} was stopped after ${stepsOf(steps)}: the user stopped the turn. Its work is incomplete.${answer === undefined ? '' : `\n\nIts last answer before that:\n${answer}`}`,
			};
	}
}
