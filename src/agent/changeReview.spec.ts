// Reviews of calls asking side by side (sub-agents) open one after another: the editor holds one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ChangeReview, oneReviewAtATime, type ReviewRequest } from './changeReview';

const request = (callId: string): ReviewRequest => ({ callId, tool: 'Write', title: `Write ${callId}`, changes: [] });

function recordingReview(log: string[], failing = new Set<string>()): ChangeReview {
	return {
		open: (opened) => {
			if (failing.has(opened.callId)) {
				log.push(`fail ${opened.callId}`);
				return Promise.reject(new Error('no editor'));
			}
			log.push(`open ${opened.callId}`);
			return Promise.resolve({
				proposedSides: () => Promise.resolve([]),
				close: () => {
					log.push(`close ${opened.callId}`);
					return Promise.resolve();
				},
			});
		},
		show: (callId) => {
			log.push(`show ${callId}`);
			return Promise.resolve();
		},
	};
}

describe('oneReviewAtATime', () => {
	it('opens a review only once the one before it closed, in the order they were asked for', async () => {
		const log: string[] = [];
		const reviews = oneReviewAtATime(recordingReview(log));
		const a = await reviews.open(request('a'));
		const b = reviews.open(request('b'));
		const c = reviews.open(request('c'));
		await Promise.resolve();
		assert.deepEqual(log, ['open a'], 'b and c wait while a is open');
		await reviews.show('a');
		await a.close();
		const opened = await b;
		assert.deepEqual(log, ['open a', 'show a', 'close a', 'open b']);
		await opened.close();
		await (await c).close();
		assert.deepEqual(log.slice(-3), ['close b', 'open c', 'close c']);
	});

	it('a review that could not open lets the next one open', async () => {
		const log: string[] = [];
		const reviews = oneReviewAtATime(recordingReview(log, new Set(['a'])));
		await assert.rejects(reviews.open(request('a')), /no editor/);
		await (await reviews.open(request('b'))).close();
		assert.deepEqual(log, ['fail a', 'open b', 'close b']);
	});
});
