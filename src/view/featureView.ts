// The view's side of a chat feature (src/features/feature.ts): what it says to the webview, the
// messages of its own it takes (`<id>.*`, routed by prefix), and its slash commands. The view
// connection knows the list, not the features; a new feature adds no case to it.
import type { IDisposable } from '../base/lifecycle';
import type { ViewMessage, ViewState } from '../protocol/messages';
import type { SlashCommand, SlashCommandSource } from './slashCommands';
import type { FeatureViewPort } from './viewPort';

export type { FeatureViewPort, Unsequenced } from './viewPort';

export interface FeatureViewPart {
	/** Its messages, both ways, are `<id>.*`. */
	readonly id: string;
	/** Its commands in the composer's slash-command registry. */
	readonly commands?: readonly SlashCommand[];
	/** Its commands that come and go (an MCP server's prompts): never a built-in's name. */
	readonly commandSource?: SlashCommandSource;
	/** Starts saying what changes through `view`, until disposed. */
	connect(view: FeatureViewPort): IDisposable;
	/** What it adds to every snapshot (the fields of ViewState that are its own; the core's win). */
	snapshot?(): Partial<ViewState>;
	/** The webview (re)connected: what it shows now. */
	shown?(view: FeatureViewPort): void;
	/** A message of its own from the webview (its type starts with `<id>.`); none for a part that only shows. */
	receive?(message: ViewMessage, view: FeatureViewPort): void;
}

/** The feature part that owns a webview message, by its type's prefix. */
export function partFor(parts: readonly FeatureViewPart[], type: string): FeatureViewPart | undefined {
	const dot = type.indexOf('.');
	const prefix = dot < 0 ? type : type.slice(0, dot);
	return parts.find((part) => part.id === prefix);
}
