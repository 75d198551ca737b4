// Async boundary: shared singletons (react, @veritas/shared…) are negotiated before the app code runs.
import('./bootstrap');
