// A compaction point: `◇ Chat compacted · N tokens → M`. (The webview slice of issue 15 makes it
// expand to the summary.)
import type { CompactionItem } from '../../src/protocol/messages';
import { el } from '../dom';
import { tokens } from '../contextUse';
import { rowElement } from './common';

export function compactionRow(item: CompactionItem): HTMLLIElement {
	return rowElement(item, 'compaction', el('span', { class: 'compaction-label' }, `◇ Chat compacted · ${tokens(item.tokensBefore)} tokens → ${tokens(item.tokensAfter)}`));
}
