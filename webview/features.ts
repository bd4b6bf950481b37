// The webview's side of the chat features (src/features/features.ts): each feature's part, one
// line each in the list. main.ts places their elements and routes each host message whose type
// starts with a part's id (`goal.*`) to it; it knows no feature by name.
import type { ViewMessage } from '../src/protocol/messages';
import type { ViewFeaturePart } from './featurePart';
import { GoalControl } from './goal';
import { ImageTray } from './images';
import { McpPart } from './mcpPart';
import { ProcessesPanel } from './processes';
import { QuestionCards } from './questions';
import { TaskPanel } from './tasks';

export type { ViewFeaturePart } from './featurePart';

export function featureParts(post: (message: ViewMessage) => void): ViewFeaturePart[] {
	return [
		new GoalControl(post),
		new TaskPanel(),
		new ProcessesPanel(post),
		new McpPart(post),
		new QuestionCards(post),
		new ImageTray(),
	];
}

/** The part that owns a host message, by its type's prefix. */
export function partFor(parts: readonly ViewFeaturePart[], type: string): ViewFeaturePart | undefined {
	const dot = type.indexOf('.');
	return dot < 0 ? undefined : parts.find((part) => part.id === type.slice(0, dot));
}
