// The summary prompt: what the model is asked to write when a chat is compacted. The summary is
// the model's own notes to continue from — every later request replays it in place of the part it
// covers (src/transcript/replay.ts, `summaryMessage`) — so it asks for what work needs next, not a
// record of what was said. docs/context.md quotes it.

/** The instructions of a summary request, before what the person asked to keep. */
export const SUMMARY_PROMPT = [
	'The conversation above is about to be compacted: from now on you will see only a summary of it in its place, followed by what comes after. Write that summary now, for yourself, so you can continue the work from it without the conversation.',
	'',
	'Include, in this order:',
	"1. The user's goals: what they want done, and any constraints or preferences they stated.",
	'2. Decisions made, and why (what was tried and rejected, too).',
	'3. The files you touched or read, and their state: what you changed in each, what is left to change, what you learned from the ones you only read. Use the paths exactly as the tools showed them.',
	'4. Open tasks, and where they are recorded (the task list, a plan file), so you can find them again.',
	'5. Errors you met and how they were resolved (or that they were not).',
	"6. What the user asked last, quoted word for word, and how far you got with it.",
	'',
	'Be specific and complete, but leave out what no longer matters. Answer only with the summary: no preamble, and no tool calls.',
].join('\n');

/** Said when the oldest turns of the part to summarize were left out of the request so it fits the window. */
export const LEFT_OUT_NOTE = 'The start of the conversation was left out of this request to fit the context window: summarize what is above, and say that earlier parts are not covered.';

/** The text of the summary request's last message: the prompt, the person's words on what to keep, and whether the start was left out. */
export function summaryPrompt(instructions: string | undefined, leftOut: boolean): string {
	const parts = [SUMMARY_PROMPT];
	if (leftOut) {
		parts.push(LEFT_OUT_NOTE);
	}
	const keep = instructions?.trim();
	if (keep) {
		parts.push(`The user asked you to make sure the summary keeps this:\n\n${keep}`);
	}
	return parts.join('\n\n');
}
