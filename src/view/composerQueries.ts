// The composer's lists: `@` (workspace files and folders, asked of the host and cancelled by a newer
// query, with what the chat features' kinds of mention offer) and `$` (the skills, from the library in memory).
import { errorMessage } from '../base/errors';
import { MAX_MENTION_CANDIDATES, type MentionCandidate, type MentionOffer, rankSkills, type SkillCandidate } from '../protocol/mentions';
import type { HandlerPort, ViewHandlers } from './viewHandlers';

export interface ComposerListSource {
	/** The workspace files and folders the composer's `@` list offers for a query, when the host lists them. */
	readonly mentionCandidates?: (query: string, signal: AbortSignal) => Promise<readonly MentionCandidate[]>;
	/** What the chat features' kinds of mention offer for a query (`@mcp:` lists MCP resources); never rejects. */
	readonly mentionOffers?: (query: string, signal: AbortSignal) => Promise<readonly MentionOffer[]>;
	/** The skills on offer now, for the composer's `$` list (none: it says there are none). */
	readonly skillCandidates?: () => readonly SkillCandidate[];
}

export function composerQueryHandlers(source: ComposerListSource, view: HandlerPort): ViewHandlers {
	/** The `@` query being answered; a newer one cancels it. */
	let pending: AbortController | undefined;

	const answerSkills = (requestId: string, query: string): void => {
		pending?.abort();
		let skills: SkillCandidate[] = [];
		try {
			skills = rankSkills(query, source.skillCandidates?.() ?? []);
		} catch (error) {
			view.log.warn(`The skills for $ could not be listed: ${errorMessage(error)}`);
		}
		view.send({ type: 'mentions.answer', requestId, candidates: [], skills });
	};

	const answerMentions = (requestId: string, query: string): void => {
		pending?.abort();
		const controller = new AbortController();
		pending = controller;
		const list = source.mentionCandidates;
		// What the features offer never costs the files their answer.
		const offered = (source.mentionOffers?.(query, controller.signal) ?? Promise.resolve([])).catch((): readonly MentionOffer[] => []);
		Promise.all([list ? list(query, controller.signal) : Promise.resolve([]), offered]).then(
			([candidates, offers]) => {
				if (!controller.signal.aborted) {
					view.send({
						type: 'mentions.answer',
						requestId,
						candidates: candidates.slice(0, MAX_MENTION_CANDIDATES).map(({ kind, path }) => ({ kind, path })),
						...(offers.length > 0 ? { offers: offers.slice(0, MAX_MENTION_CANDIDATES).map((offer) => ({ ...offer })) } : {}),
					});
				}
			},
			(error: unknown) => {
				if (!controller.signal.aborted) {
					view.log.warn(`The workspace files for @ could not be listed: ${errorMessage(error)}`);
					view.send({ type: 'mentions.answer', requestId, candidates: [] });
				}
			},
		);
	};

	return {
		'mentions.query': ({ requestId, query, trigger }) => {
			if (trigger === '$') {
				answerSkills(requestId, query);
			} else {
				answerMentions(requestId, query);
			}
		},
	};
}
