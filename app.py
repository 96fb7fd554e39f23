"""aieco dashboard entry point: `streamlit run app.py`.

Two roles in one file, as Streamlit's ``st.App`` expects:

* imported by `streamlit run` as an ASGI module (``__name__ != "__main__"``), it defines
  ``app`` whose lifespan starts building the default workspace when the server starts
  (on an empty workspace, when settings allow), before any browser connects;
* run as the app script (``__name__ == "__main__"``), it opens the workspace once per
  script run, registers the menu over the top-level ``pages/`` with ``st.navigation``
  (which disables Streamlit's own pages/ discovery, so deep links such as
  ``/reports?claim=…`` run inside this menu), shows the build's progress while it runs,
  offers the analysis selector shared by every page, and runs the selected page.
"""

import threading
from contextlib import asynccontextmanager

import streamlit as st

from aieco.extraction.gold import offline_reader_scores
from dashboard import first_launch
from dashboard.shell import main


@asynccontextmanager
async def lifespan(_app):
    first_launch.start_default_build()
    # the reader's gold-set figures (shown beside machine-read relations) computed once, before a page asks
    threading.Thread(target=offline_reader_scores, name="reader-scores", daemon=True).start()
    yield


if __name__ == "__main__":
    main()
else:  # imported by `streamlit run` (ASGI mode): the server with the first-launch lifespan
    app = st.App(__file__, lifespan=lifespan)
