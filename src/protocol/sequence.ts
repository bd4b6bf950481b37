// The number every host message carries, one more than the last (a gap means a resync).
import * as z from 'zod';

export const seq = z.number().int().nonnegative();
