import { Check } from 'lucide-react';
import { TOPIC_PALETTE } from '../domain/constants';
import { cn } from './cn';

/** Names read out for the palette's swatches. */
const COLOR_NAMES: Record<string, string> = {
  '#2563eb': 'Blue',
  '#dc2626': 'Red',
  '#16a34a': 'Green',
  '#d97706': 'Amber',
  '#9333ea': 'Purple',
  '#db2777': 'Pink',
  '#0891b2': 'Cyan',
  '#4f46e5': 'Indigo',
  '#65a30d': 'Lime',
  '#475569': 'Slate',
};

interface ColorPaletteProps {
  /** Radio group name; unique on the page. */
  name: string;
  value: string;
  onChange: (color: string) => void;
  label?: string;
}

/** The 10 topic colours as a radio group (arrow keys move between them). */
export function ColorPalette({ name, value, onChange, label = 'Colour' }: ColorPaletteProps) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap gap-2">
        {TOPIC_PALETTE.map((color) => {
          const checked = value.toLowerCase() === color;
          return (
            <label key={color} className="relative cursor-pointer" title={COLOR_NAMES[color] ?? color}>
              <input
                type="radio"
                name={name}
                value={color}
                checked={checked}
                onChange={() => onChange(color)}
                aria-label={COLOR_NAMES[color] ?? color}
                className="peer sr-only"
              />
              <span
                aria-hidden="true"
                className={cn(
                  'flex size-7 items-center justify-center rounded-full text-white ring-offset-2 ring-offset-card transition-shadow peer-focus-visible:ring-2 peer-focus-visible:ring-ring',
                  checked && 'ring-2 ring-foreground/70',
                )}
                style={{ backgroundColor: color }}
              >
                {checked && <Check className="size-4" />}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
