import { AppBar, Container, CssBaseline, Toolbar, Typography } from '@mui/material';
import { kinds } from '@dcs/domain';

/** The console's shell. The screens of issue 6 mount here. */
export function App() {
  return (
    <>
      <CssBaseline />
      <AppBar position="static">
        <Toolbar>
          <Typography variant="h6" component="h1">
            DCS Node Pools
          </Typography>
        </Toolbar>
      </AppBar>
      <Container component="main" sx={{ py: 3 }}>
        <Typography variant="h4" component="h2" gutterBottom>
          Node Pools
        </Typography>
        <Typography>
          Cluster API node pools on Huawei DCS. This console knows {kinds.length} kinds of object.
        </Typography>
      </Container>
    </>
  );
}
