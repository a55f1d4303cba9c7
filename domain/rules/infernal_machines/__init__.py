"""Infernal Machines: importing this package registers its rule modules with the auditor."""
