import {
  canOpenDeployments,
  logout,
  roleLabel,
  SHELL_MENUS,
  Slot,
  useComposition,
  useSession,
  type ComposedMenuEntry,
} from '@veritas/shared';
import { useRef, useState } from 'react';
import { Link, NavLink, Outlet, useNavigate } from '@veritas/shared';
import { ChangePassword } from './change-password';
import { LiveIndicator } from './live-indicator';
import { MenuDropdown } from './menu-dropdown';
import { useFocusOnArrival } from './page-arrival';
import { TopBarIcon } from './top-bar-icon';
import { runCommand } from './remotes';

const NO_ENTRIES: ComposedMenuEntry[] = [];

/**
 * Top bar (title, the menus with the composition's entries, Deployments for admins, live
 * indicator, the remotes' top-bar items, user, role, change password, logout), the page, and the footer.
 */
export function Layout() {
  const { user, role } = useSession();
  // Already the viewer's own, in display order (the server filtered and sorted them).
  const entries = useComposition((s) => s.composition?.menus) ?? NO_ENTRIES;
  const navigate = useNavigate();
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const menuToggle = useRef<HTMLButtonElement>(null);
  useFocusOnArrival(main);
  const closeMobileMenu = () => setMobileMenuOpen(false);
  const afterMenuChoice = (command: boolean) => {
    // A command leaves the focus on its menu's button, which the closing mobile menu hides with it.
    if (command && mobileMenuOpen) menuToggle.current?.focus();
    closeMobileMenu();
  };

  async function signOut() {
    await logout();
    navigate('/login', { replace: true });
  }

  return (
    <div className="shell">
      <header className="shell-topbar">
        <Link to="/" className="shell-title">
          Veritas
        </Link>
        <button
          ref={menuToggle}
          type="button"
          className="vx-btn vx-btn-icon shell-menu-toggle"
          aria-expanded={mobileMenuOpen}
          aria-controls="shell-nav"
          aria-label="Menu"
          onClick={() => setMobileMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <nav id="shell-nav" className="shell-nav" data-open={mobileMenuOpen} aria-label="Main">
          {SHELL_MENUS.map((menu) => (
            <MenuDropdown
              key={menu}
              label={menu}
              entries={entries.filter((entry) => entry.menu === menu)}
              onCommand={(entry) => void runCommand(entry)}
              onChoose={afterMenuChoice}
            />
          ))}
          {canOpenDeployments(role) && (
            <NavLink to="/Deployments" className="shell-menu-button shell-nav-link" onClick={closeMobileMenu}>
              Deployments
            </NavLink>
          )}
        </nav>
        <div className="shell-user">
          <LiveIndicator />
          <Slot name="top-bar.item" props={{ user, role }} />
          <span className="shell-user-name">{user}</span>
          {role && <span className="shell-role">{roleLabel(role)}</span>}
          <ChangePassword />
          <button
            type="button"
            className="vx-btn vx-btn-icon"
            aria-label="Logout"
            title="Logout"
            onClick={() => void signOut()}
          >
            <TopBarIcon>
              <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
            </TopBarIcon>
          </button>
        </div>
      </header>
      <main ref={main} className="shell-main">
        <Outlet />
      </main>
      <footer className="shell-footer">© 2025 Designed and developed by Automation COE, OneDesign</footer>
    </div>
  );
}
