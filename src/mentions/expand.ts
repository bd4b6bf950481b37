// Expanding the mentions of a message at send time, through the attachments seam
// (src/agent/attachments.ts): each mention becomes one staged entry in the mention stage, of type
// `mention.<kind>` (bodies in src/reminders/builtin/mentions.ts). A path that names nothing stays
// text; a file the chat was already given unchanged is not sent again. What was given is read
// from the chat's own records (the subjects of the `mention.file` entries its kept history holds),
// which the engine writes only when the request carrying them was dispatched: a cancelled or
// failed request marks nothing as shown, a reopened chat knows what it was given, and a compacted
// one sends again what only the summarized part had. A chat feature's kind (`@mcp:server/uri`,
// kinds.ts) is expanded by its own expander, one per message, under the same rules.
import * as nodePath from 'node:path';
import type { MessageAttachments } from '../agent/attachments';
import { errorMessage } from '../base/errors';
import { MENTION_CHANGES, MENTION_FILE, MENTION_FOLDER, MENTION_PROBLEMS, MENTION_SELECTION } from '../reminders/builtin/catalog/mentions';
import { fileRejected, folderRejected, mentionedChanges } from '../reminders/builtin/mentions';
import type { StagedEntry } from '../reminders/definition';
import type { StagedInStage } from '../reminders/staging';
import type { MentionExpander } from './kinds';
import { changesMention, problemsMention, selectionMention } from './keywordMentions';
import { DEFAULT_MENTION_LIMITS, type MentionLimits } from './limits';
import { type MentionToken, parseMentions } from './parse';
import { PathMentions } from './pathMentions';
import type { MentionPorts } from './ports';

/** One message's expansion: each token to its entry, the kinds turned off to nothing. */
class Expansion {
	private readonly roots: string[];
	private readonly paths: PathMentions;
	/** The contributed kinds' expanders of this message, made when the first of its kind comes. */
	private readonly contributed = new Map<string, MentionExpander>();

	constructor(
		private readonly ports: MentionPorts,
		private readonly limits: MentionLimits,
	) {
		this.roots = ports.roots().map((root) => nodePath.resolve(root));
		this.paths = new PathMentions(ports.fs, this.roots, ports.records(), limits);
	}

	private contributedEntry(token: Extract<MentionToken, { kind: 'contributed' }>, signal: AbortSignal): Promise<StagedEntry | undefined> {
		const kind = this.ports.kinds?.find((candidate) => candidate.prefix === token.prefix);
		if (!kind || !this.enabled(kind.declaration.type)) {
			return Promise.resolve(undefined);
		}
		let expander = this.contributed.get(kind.prefix);
		if (!expander) {
			expander = kind.source.expander({ records: this.ports.records(), limits: this.limits });
			this.contributed.set(kind.prefix, expander);
		}
		return expander(token, signal);
	}

	private enabled(type: string): boolean {
		return this.ports.isEnabled?.(type) ?? true;
	}

	async entryFor(token: MentionToken, signal: AbortSignal): Promise<StagedEntry | undefined> {
		if (token.kind === 'contributed') {
			return this.contributedEntry(token, signal);
		}
		if (token.kind === 'keyword') {
			switch (token.keyword) {
				case 'problems':
					return this.enabled(MENTION_PROBLEMS.type) ? problemsMention(this.ports.problems(), this.roots, this.limits) : undefined;
				case 'selection':
					return this.enabled(MENTION_SELECTION.type) ? selectionMention(this.ports.selection(), this.roots, this.limits) : undefined;
				case 'changes':
					return this.enabled(MENTION_CHANGES.type) ? changesMention(await this.ports.changes(signal), this.roots, this.limits) : undefined;
			}
		}
		const resolved = await this.paths.resolve(token);
		// Rejections take the kind the mention was written as: `@x/` a folder, else a file.
		const asFolder = resolved.kind === 'directory' || (resolved.kind !== 'file' && token.folder);
		if (!this.enabled(asFolder ? MENTION_FOLDER.type : MENTION_FILE.type) || resolved.kind === 'none') {
			return undefined;
		}
		if (resolved.kind === 'rejected') {
			return asFolder ? folderRejected(token.raw, resolved.why) : fileRejected(token.raw, resolved.why);
		}
		return resolved.kind === 'directory' ? this.paths.folder(token, resolved.path) : this.paths.file(token, resolved.path, signal);
	}
}

function failed(token: MentionToken, message: string): StagedEntry | undefined {
	if (token.kind === 'contributed') {
		// A kind says its own failures; one that threw anyway costs its mention only.
		return undefined;
	}
	if (token.kind === 'path') {
		return (token.folder ? folderRejected : fileRejected)(token.raw, `it could not be read (${message}).`);
	}
	const why = `it could not be read (${message}).`;
	// The editor's problems and selection are read synchronously and do not fail this way.
	return token.keyword === 'changes' ? mentionedChanges({ kind: 'unavailable', why }) : undefined;
}

/**
 * The mentions of a message's text as entries of the mention stage, in the order typed. `limits`
 * may be a function: read at each message, so a changed setting applies to the next one.
 */
export function mentionAttachments(ports: MentionPorts, limits: MentionLimits | (() => MentionLimits) = DEFAULT_MENTION_LIMITS): MessageAttachments {
	return async (text, owner, signal) => {
		const tokens = parseMentions(text, ports.kinds?.map((kind) => kind.prefix) ?? []);
		if (tokens.length === 0 || owner.kind !== 'root') {
			return [];
		}
		const expansion = new Expansion(ports, typeof limits === 'function' ? limits() : limits);
		const staged: StagedInStage[] = [];
		for (const token of tokens) {
			signal.throwIfAborted();
			let entry: StagedEntry | undefined;
			try {
				entry = await expansion.entryFor(token, signal);
			} catch (error) {
				if (signal.aborted) {
					throw error;
				}
				// One unreadable file (or a failing git) costs its own mention, never the others.
				entry = failed(token, errorMessage(error));
			}
			if (entry) {
				staged.push({ stage: 'mention', entry });
			}
		}
		return staged;
	};
}
