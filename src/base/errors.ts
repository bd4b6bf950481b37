// The words of an error, for a log line or a message: an Error's own message, anything else
// (a thrown string, a rejection with a value) as text.

export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
