import DarkMode from '@mui/icons-material/DarkMode';
import LightMode from '@mui/icons-material/LightMode';
import SettingsBrightness from '@mui/icons-material/SettingsBrightness';
import { IconButton, ListItemIcon, MenuItem } from '@mui/material';
import { LazyMenu, preloadMenu } from './LazyMenu';
import { useColorScheme } from '@mui/material/styles';
import { useId, useState } from 'react';
import { useI18n } from '../i18n/context';

type Mode = 'light' | 'dark' | 'system';
const ICONS = { light: <LightMode />, dark: <DarkMode />, system: <SettingsBrightness /> };

export function ThemeSwitch() {
  const { t } = useI18n();
  const { mode, setMode } = useColorScheme();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const current: Mode = mode ?? 'system';
  const label = (m: Mode) =>
    m === 'light'
      ? t('shell.themeLight')
      : m === 'dark'
        ? t('shell.themeDark')
        : t('shell.themeSystem');
  return (
    <>
      {/* The browser's own tooltip (title), not MUI's: Tooltip brings Popper.js, ~10 KB gzipped,
          into the first load for this one hint (issue 14). The name is the aria-label. */}
      <IconButton
        color="inherit"
        aria-label={t('shell.theme', { theme: label(current) })}
        title={t('shell.theme', { theme: label(current) })}
        aria-haspopup="menu"
        aria-controls={anchor ? id : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={preloadMenu}
        onFocus={preloadMenu}
        onClick={(e) => {
          setAnchor(e.currentTarget);
        }}
      >
        {ICONS[current]}
      </IconButton>
      <LazyMenu
        id={id}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => {
          setAnchor(null);
        }}
      >
        {(['light', 'dark', 'system'] as const).map((m) => (
          <MenuItem
            key={m}
            selected={m === current}
            onClick={() => {
              setMode(m);
              setAnchor(null);
            }}
          >
            <ListItemIcon>{ICONS[m]}</ListItemIcon>
            {label(m)}
          </MenuItem>
        ))}
      </LazyMenu>
    </>
  );
}
