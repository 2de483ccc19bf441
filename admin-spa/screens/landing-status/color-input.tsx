// A landing colour field. antd's ColorPicker trigger is a plain div: no tab stop, no role, and the
// aria-required Form.Item hands it is not allowed there. This one is a named button that opens
// the picker from the keyboard too (the picker's own hex input then takes the value).
import { useContext, useState, type KeyboardEvent } from 'react';
import { ColorPicker } from 'antd';
// The form's disabled state (a read-only account), which antd's fields read the same way.
import DisabledContext from 'antd/es/config-provider/DisabledContext.js';

interface Props {
  /** The field's label, for the button's name. */
  label: string;
  id?: string;
  value?: string;
  onChange?: (color: unknown) => void;
  disabled?: boolean;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
}

export function ColorInput({ label, id, value, onChange, disabled: own, 'aria-invalid': invalid, 'aria-describedby': describedBy }: Props) {
  const [open, setOpen] = useState(false);
  const disabled = useContext(DisabledContext) || !!own;
  const trigger = {
    id,
    role: 'button',
    tabIndex: disabled ? -1 : 0,
    'aria-label': `${label} ${value ?? ''}`.trim(),
    'aria-haspopup': 'dialog',
    'aria-expanded': open,
    'aria-invalid': invalid,
    'aria-describedby': describedBy,
    onKeyDown: (e: KeyboardEvent) => {
      if (disabled || (e.key !== 'Enter' && e.key !== ' ')) return;
      e.preventDefault();
      setOpen((o) => !o);
    },
  };
  return (
    <ColorPicker
      value={value}
      onChange={onChange}
      disabled={disabled}
      open={open}
      onOpenChange={setOpen}
      showText
      disabledAlpha
      format="hex"
      {...(trigger as object)}
    />
  );
}
