import Translate from '@mui/icons-material/Translate';
import { Button, MenuItem } from '@mui/material';
import { LazyMenu, preloadMenu } from './LazyMenu';
import { useId, useState } from 'react';
import { useI18n } from '../i18n/context';
import { LOCALES, type Locale } from '../i18n/locale';
import { loadPack } from '../i18n/packs';

/** Each language is named in itself, so that anyone can find their own. */
const NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  return (
    <>
      <Button
        color="inherit"
        startIcon={<Translate />}
        aria-label={t('shell.language', { language: NAMES[locale] })}
        aria-haspopup="menu"
        aria-controls={anchor ? id : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={preloadMenu}
        onFocus={preloadMenu}
        onClick={(e) => {
          setAnchor(e.currentTarget);
          // Fetch the other languages while the user reads the menu: the choice is then instant.
          for (const l of LOCALES) if (l !== locale) loadPack(l).catch(() => undefined);
        }}
        sx={{ textTransform: 'none' }}
      >
        {NAMES[locale]}
      </Button>
      <LazyMenu
        id={id}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => {
          setAnchor(null);
        }}
      >
        {LOCALES.map((l) => (
          <MenuItem
            key={l}
            lang={l}
            selected={l === locale}
            onClick={() => {
              setLocale(l);
              setAnchor(null);
            }}
          >
            {NAMES[l]}
          </MenuItem>
        ))}
      </LazyMenu>
    </>
  );
}
