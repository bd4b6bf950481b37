// The context windows of hosted models whose API may not say (a gateway in front of Anthropic,
// OpenAI's model list, which carries no window). Consulted only after the provider's own API or
// server had nothing to say; `aside.contextWindow` overrides it. Sources, as published:
// - Anthropic: platform.claude.com/docs "Models overview", each model's page, and "Context
//   windows" (the 1M list; "other Claude models, including Claude Sonnet 4.5, have a 200k-token
//   context window" — Aside sends no long-context beta header).
// - OpenAI: platform.openai.com/docs/models, each model's "Context window".
// Local servers (Ollama, llama.cpp, LM Studio, vLLM) are not here on purpose: their window is
// whatever the server was started with, which only the server can say.

const M = 1_000_000;
const K200 = 200_000;

/** Model id (without a date snapshot suffix) → context window in tokens. */
const KNOWN: ReadonlyMap<string, number> = new Map(Object.entries({
	'claude-fable-5-1': M,
	'claude-fable-5': M,
	'claude-mythos-5-1': M,
	'claude-mythos-5': M,
	'claude-opus-5-5': M,
	'claude-opus-5': M,
	'claude-sonnet-5': M,
	'claude-opus-4-8': M,
	'claude-opus-4-7': M,
	'claude-opus-4-6': M,
	'claude-sonnet-4-6': M,
	'claude-opus-4-5': K200,
	'claude-sonnet-4-5': K200,
	'claude-haiku-4-5': K200,
	'claude-opus-4-1': K200,
	'claude-opus-4-0': K200,
	'claude-opus-4': K200,
	'claude-sonnet-4-0': K200,
	'claude-sonnet-4': K200,
	'claude-3-7-sonnet': K200,
	'claude-3-5-sonnet': K200,
	'claude-3-5-haiku': K200,
	'claude-3-haiku': K200,
	'gpt-5': 400_000,
	'gpt-5-mini': 400_000,
	'gpt-5-nano': 400_000,
	'gpt-5-chat-latest': 128_000,
	'gpt-4.1': 1_047_576,
	'gpt-4.1-mini': 1_047_576,
	'gpt-4.1-nano': 1_047_576,
	'gpt-4o': 128_000,
	'gpt-4o-mini': 128_000,
	o1: K200,
	o3: K200,
	'o3-mini': K200,
	'o4-mini': K200,
}));

/** A snapshot date (`-20250929`, `-2024-08-06`) or `-latest` names the same model. */
const SNAPSHOT = /-(?:\d{8}|\d{4}-\d\d-\d\d|latest)$/;

/**
 * The published window of a hosted model, or undefined. Matches the id exactly, without a
 * snapshot suffix, and without a gateway's vendor prefix (`anthropic/…`, `openai/…`) — never by
 * prefix, so `gpt-5-chat-latest` is not taken for `gpt-5`.
 */
export function knownContextWindow(model: string): number | undefined {
	const id = model.trim().toLowerCase().replace(/^(?:anthropic|openai)\//, '');
	return KNOWN.get(id) ?? KNOWN.get(id.replace(SNAPSHOT, ''));
}
