import { parseSmartRules } from '@encore/common/smart-playlist.rules';
import { describe, expect, it } from 'vitest';
import { emptyDraft, fromRules, newCondition, newGroup, toRules, updateRule, withField } from './smart-rules.draft';

describe('the smart playlist draft', () => {
  it('writes rules the server accepts, and reads them back', () => {
    const draft = emptyDraft();
    const group = newGroup('any');
    draft.root.rules = [
      { ...newCondition('genre'), operator: 'is', value: 'Jazz' },
      {
        ...group,
        rules: [
          { ...withField(newCondition(), 'year'), operator: 'inTheRange', value: '1950', value2: '1965' },
          { ...withField(newCondition(), 'loved'), value: 'true' },
        ],
      },
    ];
    draft.limit = '50';
    const rules = toRules(draft);
    expect(rules).toEqual({
      all: [{ is: { genre: 'Jazz' } }, { any: [{ inTheRange: { year: [1950, 1965] } }, { is: { loved: true } }] }],
      sort: 'title',
      order: 'asc',
      limit: 50,
    });
    expect(parseSmartRules(rules).ok).toBe(true);
    expect(toRules(fromRules(rules))).toEqual(rules);
  });

  it('keeps an operator the new field takes, and changes one it does not', () => {
    const condition = { ...newCondition('title'), operator: 'contains' as const, value: 'love' };
    expect(withField(condition, 'album')).toMatchObject({ field: 'album', operator: 'contains', value: 'love' });
    expect(withField(condition, 'bpm')).toMatchObject({ field: 'bpm', operator: 'is', value: '' });
  });

  it('removes a rule from a nested group', () => {
    const draft = emptyDraft();
    const inner = newGroup();
    draft.root.rules.push(inner);
    const removed = updateRule(draft.root, inner.rules[0]!.id, () => undefined);
    expect(removed.rules[1]).toMatchObject({ kind: 'group', rules: [] });
  });
});
