// Routing for the shell and every remote. react-router is bundled inside @veritas/shared (the
// singleton) instead of being federated on its own: a federated module cannot be tree-shaken,
// and the whole of react-router would weigh more than the rest of the shell's first load.
// Remotes import routing from here, so they all live in the shell's one router context.
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useSearchParams,
} from 'react-router';
