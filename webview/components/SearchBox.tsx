interface SearchBoxProps {
  /** The codicon shown before the input, e.g. `search` or `filter`. */
  icon: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
  testId: string;
  id?: string;
}

/** A search input with a leading icon; Escape clears a non-empty value (and only then stops the key). */
export function SearchBox({ icon, value, onChange, placeholder, label, testId, id }: SearchBoxProps) {
  return (
    <div class="search-box">
      <i class={`codicon codicon-${icon}`} aria-hidden="true" />
      <input
        id={id}
        type="search"
        placeholder={placeholder}
        aria-label={label}
        data-testid={testId}
        value={value}
        onInput={(event) => onChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) {
            event.preventDefault();
            onChange('');
          }
        }}
      />
    </div>
  );
}
