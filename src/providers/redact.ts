// Secrets never leave in an error: a server that echoes the API key in its error body, or a URL
// with a password in it, would otherwise carry them into the chat, the transcript and the log.
// Each provider knows the key it sends and passes every error through here before throwing it.
import { errorMessage } from '../base/errors';
import { ProviderError } from './provider';

/** What a redacted secret reads as. */
export const REDACTED = '[redacted]';

/**
 * Shorter "keys" are not secrets worth mangling a message for (and would match ordinary words):
 * a local server's placeholder key such as "none" or "x".
 */
const MIN_SECRET_LENGTH = 6;

/** The user-info part of any URL in a text: `scheme://user:pass@` → `scheme://[redacted]@`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

export function redactText(text: string, secrets: readonly string[]): string {
	let out = text.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
	for (const secret of secrets) {
		if (secret.length >= MIN_SECRET_LENGTH) {
			out = out.split(secret).join(REDACTED);
		}
	}
	return out;
}

/** Whether an error or one of its causes mentions a secret (or URL credentials). */
function mentions(value: unknown, secrets: readonly string[], depth = 0): boolean {
	if (depth > 4 || value === undefined || value === null) {
		return false;
	}
	const text = value instanceof Error ? `${value.name}: ${value.message}` : typeof value === 'string' ? value : '';
	if (text !== '' && redactText(text, secrets) !== text) {
		return true;
	}
	return value instanceof Error && mentions(value.cause, secrets, depth + 1);
}

/**
 * The error as it may be shown: a ProviderError with the secrets replaced in its message and
 * without a cause that mentions them; anything else becomes a ProviderError of kind 'stream'
 * only if it mentions a secret (a bug's TypeError should stay what it is).
 */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
	if (error instanceof ProviderError) {
		const message = redactText(error.message, secrets);
		const { cause, ...rest } = error.details;
		const keepCause = !mentions(cause, secrets);
		if (message === error.message && keepCause) {
			return error;
		}
		return new ProviderError(error.kind, message, { ...rest, ...(keepCause && cause !== undefined ? { cause } : {}) });
	}
	if (mentions(error, secrets)) {
		return new ProviderError('stream', redactText(errorMessage(error), secrets));
	}
	return error;
}

/** `stream` with every error it throws redacted. */
export async function* redacting<T>(stream: AsyncIterable<T>, secrets: readonly string[]): AsyncGenerator<T, void, undefined> {
	try {
		yield* stream;
	} catch (error) {
		throw redactError(error, secrets);
	}
}
