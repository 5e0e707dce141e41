import { OPERATORS_OF_TYPE, SMART_FIELDS, type SmartOperator } from '@encore/common/smart-playlist.rules';
import { FolderPlus, Plus, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import type { MessageKey } from '../../../lib/i18n/catalogue';
import { useT } from '../../../lib/i18n/i18n.store';
import { cn } from '../../../lib/cn';
import { fieldInfo, newCondition, newGroup, updateRule, withField, type DraftCondition, type DraftGroup, type DraftRule } from './smart-rules.draft';

const selectClass =
  'h-11 min-w-0 rounded-xl border border-border bg-input/70 px-3 text-[0.95rem] text-foreground outline-none hover:border-accent/40 focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25';

export const fieldLabelKey = (name: string) => `smartField_${name}` as MessageKey;
const operatorLabelKey = (operator: SmartOperator) => `smartOp_${operator}` as MessageKey;

/**
 * The rules of a smart playlist as nested groups ("match all" / "match any") of conditions:
 * each a field, an operator its type takes and a value. Changes go up whole (the draft is
 * immutable), so the page can count the matches of every change.
 */
export function SmartRuleEditor({ root, onChange }: { root: DraftGroup; onChange: (root: DraftGroup) => void }) {
  const change = (id: string, update: (rule: DraftRule) => DraftRule | undefined) =>
    onChange(id === root.id ? (update(root) as DraftGroup) : updateRule(root, id, update));
  return <GroupEditor group={root} depth={0} onChange={change} />;
}

type Change = (id: string, update: (rule: DraftRule) => DraftRule | undefined) => void;

function GroupEditor({ group, depth, onChange }: { group: DraftGroup; depth: number; onChange: Change }) {
  const t = useT();
  const add = (rule: DraftRule) => onChange(group.id, (current) => ({ ...(current as DraftGroup), rules: [...(current as DraftGroup).rules, rule] }));
  return (
    <fieldset
      data-testid="smart-group"
      className={cn('flex min-w-0 flex-col gap-3', depth > 0 && 'rounded-2xl border border-border/70 bg-white/[0.03] p-3 sm:p-4')}
    >
      <div className="flex flex-wrap items-center gap-2">
        <select
          aria-label={t('smartMatchAll')}
          className={selectClass}
          value={group.match}
          onChange={(event) => onChange(group.id, (current) => ({ ...(current as DraftGroup), match: event.target.value === 'any' ? 'any' : 'all' }))}
        >
          <option value="all">{t('smartMatchAll')}</option>
          <option value="any">{t('smartMatchAny')}</option>
        </select>
        {depth > 0 ? (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(group.id, () => undefined)}>
            <X aria-hidden className="size-4" />
            {t('smartRemoveGroup')}
          </Button>
        ) : null}
      </div>
      <ul className="flex min-w-0 flex-col gap-3">
        {group.rules.map((rule) => (
          <li key={rule.id} className="min-w-0">
            {rule.kind === 'group' ? (
              <GroupEditor group={rule} depth={depth + 1} onChange={onChange} />
            ) : (
              <ConditionEditor condition={rule} onChange={onChange} />
            )}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" size="sm" onClick={() => add(newCondition())}>
          <Plus aria-hidden className="size-4" />
          {t('smartAddCondition')}
        </Button>
        {depth < 4 ? (
          <Button type="button" variant="secondary" size="sm" onClick={() => add(newGroup())}>
            <FolderPlus aria-hidden className="size-4" />
            {t('smartAddGroup')}
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}

function ConditionEditor({ condition, onChange }: { condition: DraftCondition; onChange: Change }) {
  const t = useT();
  const info = fieldInfo(condition.field);
  const set = (values: Partial<DraftCondition>) => onChange(condition.id, (current) => ({ ...(current as DraftCondition), ...values }));
  const days = condition.operator === 'inTheLast' || condition.operator === 'notInTheLast';
  const inputType = days || info.type === 'number' ? 'number' : info.type === 'date' ? 'date' : 'text';
  const valueInput = (value: string, key: 'value' | 'value2', label: string): ReactNode =>
    info.type === 'boolean' ? (
      <select aria-label={label} className={selectClass} value={value} onChange={(event) => set({ [key]: event.target.value })}>
        <option value="true">{t('smartTrue')}</option>
        <option value="false">{t('smartFalse')}</option>
      </select>
    ) : (
      <Input
        aria-label={label}
        type={inputType}
        dir="auto"
        step="any"
        list={'choices' in info && info.choices ? `smart-choices-${info.name}` : undefined}
        className="w-full sm:w-40"
        value={value}
        onChange={(event) => set({ [key]: event.target.value })}
      />
    );

  return (
    <div data-testid="smart-condition" className="flex min-w-0 flex-wrap items-center gap-2">
      <select
        aria-label={t('smartFieldLabel')}
        className={cn(selectClass, 'max-w-full')}
        value={condition.field}
        onChange={(event) => onChange(condition.id, (current) => withField(current as DraftCondition, event.target.value))}
      >
        {SMART_FIELDS.map((field) => (
          <option key={field.name} value={field.name}>
            {t(fieldLabelKey(field.name))}
          </option>
        ))}
      </select>
      <select
        aria-label={t('smartOperatorLabel')}
        className={selectClass}
        value={condition.operator}
        onChange={(event) => set({ operator: event.target.value as SmartOperator })}
      >
        {OPERATORS_OF_TYPE[info.type].map((operator) => (
          <option key={operator} value={operator}>
            {t(operatorLabelKey(operator))}
          </option>
        ))}
      </select>
      {valueInput(condition.value, 'value', t('smartValueLabel'))}
      {condition.operator === 'inTheRange' ? valueInput(condition.value2, 'value2', t('smartValueToLabel')) : null}
      {days ? <span className="text-sm text-muted">{t('smartDays')}</span> : null}
      {'choices' in info && info.choices ? (
        <datalist id={`smart-choices-${info.name}`}>
          {info.choices.map((choice) => (
            <option key={choice} value={choice} />
          ))}
        </datalist>
      ) : null}
      <Button type="button" variant="ghost" size="icon" aria-label={t('smartRemove')} onClick={() => onChange(condition.id, () => undefined)}>
        <X aria-hidden className="size-4" />
      </Button>
    </div>
  );
}
