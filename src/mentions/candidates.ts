// What the composer's `@` list offers for what was typed after the `@`: workspace files and the
// folders holding them, ranked by a fuzzy match (every character of the query in order; a match
// in the name, at the start of a word, or contiguous ranks higher; shorter paths first on ties).
// Pure: the host lists the files (src/vscode/mentionPorts.ts), the webview adds the keywords.
import { fuzzyScore, MAX_MENTION_CANDIDATES, type MentionCandidate } from '../protocol/mentions';

/** The files and their folders that match `query`, best first, at most `limit`. */
export function rankCandidates(query: string, files: readonly string[], limit = MAX_MENTION_CANDIDATES): MentionCandidate[] {
	const folders = new Set<string>();
	for (const file of files) {
		for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
			folders.add(file.slice(0, slash));
		}
	}
	const needle = query.toLowerCase().replace(/\/+$/u, '');
	const scored: { candidate: MentionCandidate; score: number }[] = [];
	const consider = (candidate: MentionCandidate) => {
		const score = fuzzyScore(needle, candidate.path.toLowerCase());
		if (score !== undefined) {
			scored.push({ candidate, score });
		}
	};
	folders.forEach((path) => {
		consider({ kind: 'folder', path });
	});
	files.forEach((path) => {
		consider({ kind: 'file', path });
	});
	return scored
		.sort((a, b) => b.score - a.score || a.candidate.path.length - b.candidate.path.length || a.candidate.path.localeCompare(b.candidate.path))
		.slice(0, limit)
		.map(({ candidate }) => candidate);
}
