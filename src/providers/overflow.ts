// "The request is longer than the model's context window", as each server says it. Compaction
// (src/agent/compaction/) answers this error kind by compacting once and sending the request
// again, so it must be told apart from other refusals of a request — by the server's own words,
// since no two servers share a code. Each pattern is what a real server sent (recorded in issue
// threads of the servers and of clients that met them):
// - Anthropic: 400 invalid_request_error "prompt is too long: 200251 tokens > 200000 maximum";
//   413 request_too_large (the request's bytes, which compaction shrinks as well).
// - OpenAI and servers copying it (vLLM, DeepSeek, Groq, OpenRouter "This endpoint's maximum
//   context length is …"): code context_length_exceeded, "This model's maximum context length is
//   8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the
//   messages."
// - llama.cpp server: type exceed_context_size_error, "the request exceeds the available context
//   size. try increasing the context size or enable context shift" (status 400, 500 before 2025).
// - LM Studio: "Trying to keep the first 10136 tokens when context the overflows. However, the
//   model is loaded with context length of only 7866 tokens", "Cannot truncate prompt with n_keep
//   (15028) >= n_ctx (7424)", MLX "Context size has been exceeded" — sometimes inside a 200 stream.
// - GitHub Copilot through vscode.lm: "prompt token count of 132354 exceeds the limit of 128000"
//   (code model_max_prompt_tokens_exceeded), and vscode.lm's own "Message exceeds token limit."
// - Mistral: "Prompt contains 40000 tokens … too large for model with 32768 maximum context length".
// - Gemini (OpenAI-compatible): "The input token count (1200000) exceeds the maximum number of
//   tokens allowed (1048576)".
import type { ProviderErrorKind } from './provider';

const PATTERNS: readonly RegExp[] = [
	/prompt is too long/i,
	/request_too_large/i,
	/context_length_exceeded/i,
	/maximum context length is \d/i,
	/exceeds? the available context size/i,
	/exceed_context_size_error/i,
	/when context the overflows/i,
	/n_keep\s*\(?\d+\)?\s*>=?\s*n_ctx/i,
	/context size has been exceeded/i,
	/prompt token count of \d+ exceeds the limit/i,
	/model_max_prompt_tokens_exceeded/i,
	/message exceeds token limit/i,
	/too large for model with \d+ maximum context length/i,
	/input token count.{0,40}exceeds the maximum/i,
	/context window (?:is )?exceeded|exceeds? (?:the )?(?:model'?s )?context window/i,
];

/** Whether a server's error text (its body, or the message it put in the stream) says the request is too long for the model. */
export function saysTooLong(text: string): boolean {
	return PATTERNS.some((pattern) => pattern.test(text));
}

/** Statuses a server refuses a too-long request with: 400 (most), 413 (bytes), 422 (some gateways), 500 (llama.cpp before 2025). */
const TOO_LONG_STATUSES = new Set([400, 413, 422, 500]);

/** The kind of an HTTP refusal: `too-long` when its status and words say so, else `kind`. */
export function overflowKind(kind: ProviderErrorKind, status: number | undefined, text: string): ProviderErrorKind {
	return (status === undefined || TOO_LONG_STATUSES.has(status)) && saysTooLong(text) ? 'too-long' : kind;
}
