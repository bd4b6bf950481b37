// Whether a process that went quiet waits at a prompt (`run.background.stuck`): its last line asks a
// question or for a yes/no, a password or a key. A background process has no input, so it never
// gets an answer: the model is told to stop it and run it again non-interactively.

const PROMPTS: readonly RegExp[] = [
	// A question: "Overwrite existing files?", "Continue? ", or one with its default after it: "Ok to proceed? (y) ", "Project name? › (my-app)".
	/\?\s*$/u,
	/\?\s*[›»>]?\s*[[(][^\])]{0,40}[\])]\s*:?\s*$/u,
	// A yes/no choice: [y/N], [Y/n], (yes/no), (y/n), [yes/no]:
	/[[(]\s*(?:y\s*\/\s*n|yes\s*\/\s*no)\s*[\])]\s*[:?]?\s*$/iu,
	// Credentials: "Password:", "Enter passphrase for key '…':", "Username for 'https://…':".
	/\b(?:password|passphrase|username|user name|token|otp|verification code)\b[^\n]*:\s*$/iu,
	// "Press any key to continue", "Press Enter to …".
	/\bpress (?:any key|enter|return)\b/iu,
];

/** Whether the line reads as a prompt waiting for input. */
export function looksLikePrompt(line: string): boolean {
	const text = line.trimEnd();
	return text !== '' && text.length <= 500 && PROMPTS.some((prompt) => prompt.test(text));
}

/** The prompt a quiet process waits at: the line being written (prompts end without a newline), else the last line; undefined when neither reads as one. */
export function waitingPrompt(current: string, lastLine: string | undefined): string | undefined {
	if (current.trim() !== '') {
		return looksLikePrompt(current) ? current.trim() : undefined;
	}
	return lastLine !== undefined && looksLikePrompt(lastLine) ? lastLine.trim() : undefined;
}
