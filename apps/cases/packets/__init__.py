"""Packets: one uploaded PDF holding several of an applicant's documents, cut into them by page
classification and page continuity (``split``), read cheaply on upload (``reading``), stored as
documents (``uploads``) and re-cut when a reviewer corrects the split (``services``)."""
