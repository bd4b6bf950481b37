// Where a hunk's lines are in a file, without rescanning the rest of the file for every hunk: each
// distinct line of the file gets a number and the ascending list of where it occurs, built once per
// file. A search looks only at the places of the hunk's rarest line at or after where it may start,
// so a hunk whose lines are unique below the cursor costs its own length, and checking that it
// occurs only once costs no scan to the end of the file. The work is counted in `Work` and the
// search yields every quantum (steps.ts), so a long one can be stopped.
import type { Steps, Work } from './steps';

export class LineIndex {
	/** Each line's number: equal texts, equal numbers. */
	private readonly ids: Int32Array;
	private readonly numbers = new Map<string, number>();
	/** For each number, where its lines are, ascending. */
	private readonly places: number[][] = [];

	private constructor(readonly texts: readonly string[]) {
		this.ids = new Int32Array(texts.length);
	}

	/** The index of `texts`, pausing as it goes. */
	static *build(texts: readonly string[], work: Work): Steps<LineIndex> {
		const index = new LineIndex(texts);
		for (const [i, text] of texts.entries()) {
			let id = index.numbers.get(text);
			if (id === undefined) {
				id = index.places.length;
				index.numbers.set(text, id);
				index.places.push([]);
			}
			index.ids[i] = id;
			index.places[id]?.push(i);
			// A Map insert costs several line comparisons: counted as four.
			if ((i + 1) % 4096 === 0) {
				yield* work.spend(4 * 4096);
			}
		}
		return index;
	}

	/** Where `pattern` (not empty) starts at or after `from`: the first `want` occurrences at most, ascending. */
	*find(pattern: readonly string[], from: number, want: number, work: Work): Steps<number[]> {
		const ids: number[] = [];
		let rarest = 0;
		for (const [i, text] of pattern.entries()) {
			const id = this.numbers.get(text);
			if (id === undefined) {
				return [];
			}
			ids.push(id);
			if ((this.places[id]?.length ?? 0) < (this.places[ids[rarest] ?? 0]?.length ?? 0)) {
				rarest = i;
			}
		}
		yield* work.spend(pattern.length);
		const places = this.places[ids[rarest] ?? 0] ?? [];
		const matches: number[] = [];
		for (let k = firstAtLeast(places, from + rarest); k < places.length && matches.length < want; k++) {
			const start = (places[k] ?? 0) - rarest;
			if (start + ids.length > this.ids.length) {
				break;
			}
			let length = 0;
			while (length < ids.length && this.ids[start + length] === ids[length]) {
				length++;
			}
			if (length === ids.length) {
				matches.push(start);
			}
			yield* work.spend(length + 1);
		}
		return matches;
	}
}

/** The first index of ascending `sorted` whose value is at least `value` (its length when none is). */
function firstAtLeast(sorted: readonly number[], value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((sorted[middle] ?? 0) < value) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}
	return low;
}
