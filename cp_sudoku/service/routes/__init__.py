"""The service's routes, one router per area: :mod:`.puzzles` (one puzzle), :mod:`.jobs`
(whole files), :mod:`.about` (listings and health) and :mod:`.page` (the web page)."""
