import { createTheme } from '@mui/material/styles';

/**
 * Light and dark, switched with a class on <html> (so that the choice survives reloads without a
 * flash), following the system until the user picks one. Dense enough for a laptop screen:
 * cards and tables show a pool's numbers without scrolling.
 */
export const theme = createTheme({
  colorSchemes: {
    // Text and outlined chips in these colours on white reach WCAG AA (4.5:1); contrastThreshold
    // makes filled chips pick the label colour that does too.
    light: {
      palette: {
        primary: { main: '#1565c0' },
        info: { main: '#01579b' },
        warning: { main: '#b45309' },
        success: { main: '#1b5e20' },
        background: { default: '#f5f7fa' },
        contrastThreshold: 4.5,
      },
    },
    dark: {
      palette: {
        primary: { main: '#90caf9' },
        background: { default: '#10141a', paper: '#171c24' },
        contrastThreshold: 4.5,
      },
    },
  },
  cssVariables: { colorSchemeSelector: 'class' },
  shape: { borderRadius: 8 },
  typography: {
    fontSize: 14,
    h1: { fontSize: '1.5rem', fontWeight: 600 },
    h2: { fontSize: '1.35rem', fontWeight: 600 },
    h3: { fontSize: '1.1rem', fontWeight: 600 },
    h4: { fontSize: '1rem', fontWeight: 600 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      // The reference product's terms are shown as written ("Add Worker Node Pool", "Scale").
      styleOverrides: { root: { textTransform: 'none' } },
    },
    MuiTab: { styleOverrides: { root: { textTransform: 'none', fontSize: 15 } } },
    MuiTextField: {
      defaultProps: { size: 'small' },
      styleOverrides: {
        root: ({ theme: th }) => ({
          '&.field-warning .MuiFormHelperText-root': {
            color: th.palette.warning.main,
          },
        }),
      },
    },
    MuiTableCell: {
      styleOverrides: {
        root: { paddingTop: 6, paddingBottom: 6 },
        // MUI sizes a small table's checkbox column for content-box (24 px inside 28 px of
        // padding); CssBaseline makes every box border-box, which left the column 28 px wide and
        // its checkbox overflowing it, cut off under the sticky header's next cell.
        paddingCheckbox: { boxSizing: 'content-box' },
      },
    },
  },
});
