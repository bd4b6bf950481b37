// Which of its parent's tools a child is offered, by its profile: a child never gets a tool its
// parent was not offered (plan mode, an untrusted workspace and aside.tools.edit apply to it as to
// the parent), nor one of the root loop's own (RunOutput, RunStop). The Agent tool is not among these: whether a child may spawn is its profile's
// canSpawn and its depth (childAgents.ts).
import { keepTools, type Tool } from '../../tools/tool';
import { builtinToolFacts } from '../../tools/toolFacts';
import type { ProfileTools } from './profile';

export function toolsForProfile(tools: ProfileTools, parentTools: readonly Tool[]): readonly Tool[] {
	return byProfile(tools, keepTools(parentTools, (tool) => builtinToolFacts(tool.name)?.inProfiles !== 'never'));
}

function byProfile(tools: ProfileTools, parentTools: readonly Tool[]): readonly Tool[] {
	switch (tools.kind) {
		case 'inherit':
			return parentTools;
		case 'read-only':
			return keepTools(parentTools, (tool) => tool.kind === 'read');
		case 'named':
			// Named tools only: Run (a command) too, but only when named.
			return keepTools(parentTools, (tool) => tools.names.includes(tool.name));
	}
}
